// The API's layers (apps/api/src), checked on every import:
//
//   entry (app.ts, main.ts, migrate.ts, config-table.ts,   wires everything
//          operator.ts, backup.ts)
//   seed/ · jobs/ · hub/                                   use modules (their public surface)
//   modules/<name>/                                        routes → service → repo
//   plugins/ · adapters/                                   Fastify plugins · the outside world
//   db/                                                    schema, client
//   platform (the other top-level files: config, errors, http, i18n, …)
//
// A layer imports only the layers below it. A module reaches another module only through that
// module's public surface: `service.ts`, any `*-service.ts`, and the files declared in
// `publicFiles` (the options of this rule, in eslint.config.js). Its repo is private.
import path from 'node:path';
import { importVisitors } from './import-visitors.js';

const apiSrc = (filename) => {
  const norm = filename.split(path.sep).join('/');
  const i = norm.lastIndexOf('/apps/api/src/');
  return i === -1 ? null : norm.slice(i + '/apps/api/src/'.length);
};

const ENTRY = new Set([
  'app.ts',
  'main.ts',
  'migrate.ts',
  'config-table.ts',
  'operator.ts',
  'backup.ts',
]);
const UPPER = new Set(['seed', 'jobs', 'hub']);

/** Zone of a path relative to apps/api/src (without extension tolerance: compared by folder). */
export function zoneOf(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) {
    const file = /\.[cm]?[jt]sx?$/.test(parts[0]) ? parts[0] : `${parts[0]}.ts`;
    return ENTRY.has(file) ? { zone: 'entry' } : { zone: 'platform' };
  }
  const [top, name, ...rest] = parts;
  if (top === 'modules') return { zone: 'module', module: name, file: rest.join('/') };
  if (UPPER.has(top) || ['plugins', 'adapters', 'db'].includes(top)) return { zone: top };
  return { zone: 'platform' };
}

/** What each zone may import (besides itself). A module is checked separately for other modules. */
const ALLOWED = {
  entry: ['entry', 'seed', 'jobs', 'hub', 'module', 'plugins', 'adapters', 'db', 'platform'],
  seed: ['module', 'adapters', 'db', 'platform'],
  jobs: ['module', 'adapters', 'db', 'platform'],
  hub: ['module', 'plugins', 'adapters', 'db', 'platform'],
  module: ['module', 'plugins', 'adapters', 'db', 'platform'],
  plugins: ['db', 'platform'],
  adapters: ['db', 'platform'],
  db: ['platform'],
  platform: [],
};

const isServiceFile = (file) => /^(.*-)?service(\.[cm]?[jt]sx?)?$/.test(file);
const stripExt = (file) => file.replace(/\.[cm]?[jt]sx?$/, '');

export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'API layers: entry → seed/jobs/hub → modules → plugins/adapters → db → platform',
    },
    schema: [
      {
        type: 'object',
        properties: {
          publicFiles: {
            type: 'object',
            additionalProperties: { type: 'array', items: { type: 'string' } },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const rel = apiSrc(context.filename);
    if (!rel || /\.test\.ts$/.test(rel)) return {};
    const publicFiles = context.options[0]?.publicFiles ?? {};
    const from = zoneOf(rel);
    const isPublic = (module, file) =>
      isServiceFile(stripExt(file)) ||
      (publicFiles[module] ?? []).some((p) => stripExt(p) === stripExt(file));

    const check = (node, source) => {
      if (!source.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), source));
      if (target.startsWith('..')) return;
      const to = zoneOf(target);
      if (to.zone === from.zone && to.zone !== 'module') return;
      if (from.zone === 'entry') return;
      if (!ALLOWED[from.zone].includes(to.zone)) {
        context.report({
          node,
          message: `${from.zone === 'module' ? `modules/${from.module}` : from.zone} must not import ${to.zone === 'module' ? `modules/${to.module}` : to.zone} (${source}): the API's layers go entry → seed/jobs/hub → modules → plugins/adapters → db → platform`,
        });
        return;
      }
      if (to.zone === 'module' && to.module !== from.module && !isPublic(to.module, to.file)) {
        const declared = ['service.ts', ...(publicFiles[to.module] ?? [])].join(', ');
        context.report({
          node,
          message: `modules/${to.module}/${to.file} is private to its module (${source}); use its public surface: ${declared}`,
        });
      }
    };
    return importVisitors(check);
  },
};
