// The house rules fail when broken: this lints planted violations with the repository's own
// eslint.config.js (the one `npm run lint` uses) and expects each to be reported. Without it, a
// resolver that follows no import (as import-x/no-cycle once had) passes everything silently.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The repository's config, with the ignore of `__lint-fixtures__` lifted so the plants are linted. */
const eslint = new ESLint({ cwd: root, ignore: false });

/** Rule ids and messages reported for `code` as if it were the file at `file` (repo-relative). */
async function lint(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

async function lintFile(file) {
  const [result] = await eslint.lintFiles([path.join(root, file)]);
  return result.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const rules = (messages) => messages.map((m) => m.rule);

describe('import cycles are found (import-x/no-cycle resolves .ts and the @/ alias)', () => {
  beforeAll(async () => {
    // The first lint loads the config and the TypeScript resolver.
    await lint('apps/api/src/errors.ts', 'export {};\n');
  });

  it('fails a planted cycle between two API files', async () => {
    expect(rules(await lintFile('apps/api/src/__lint-fixtures__/cycle-a.ts'))).toContain(
      'import-x/no-cycle',
    );
    expect(rules(await lintFile('apps/api/src/__lint-fixtures__/cycle-b.ts'))).toContain(
      'import-x/no-cycle',
    );
  });

  it('fails a planted cycle in the web app through the @/ alias', async () => {
    expect(rules(await lintFile('apps/web/src/__lint-fixtures__/cycle-a.ts'))).toContain(
      'import-x/no-cycle',
    );
  });

  it('passes the same files once the cycle is broken', async () => {
    const messages = await lint(
      'apps/api/src/__lint-fixtures__/cycle-a.ts',
      'export const a = (n: number): number => n;\n',
    );
    expect(rules(messages)).not.toContain('import-x/no-cycle');
  });
});

describe('API layers (local/api-boundaries; docs/architecture.md "Layers of the API")', () => {
  const forbidden = [
    ['a module importing a job', 'apps/api/src/modules/orders/x.ts', '../../jobs/month-end'],
    ['a module importing the hub', 'apps/api/src/modules/payments/x.ts', '../../hub/hub-server'],
    ['a module importing app.ts', 'apps/api/src/modules/orders/x.ts', '../../app'],
    ['a module importing the seed', 'apps/api/src/modules/users/x.ts', '../../seed/demo-users'],
    ["a module importing another module's repo", 'apps/api/src/modules/payments/x.ts', '../orders/repo'],
    ['an adapter importing a module', 'apps/api/src/adapters/sms/x.ts', '../../modules/outbox/service'],
    ['db importing a module', 'apps/api/src/db/x.ts', '../modules/users/service'],
    ['a plugin importing a module', 'apps/api/src/plugins/x.ts', '../modules/auth/service'],
    ['a job importing the hub', 'apps/api/src/jobs/x.ts', '../hub/payment-hub'],
    ['a job importing a repo', 'apps/api/src/jobs/x.ts', '../modules/month-end/repo'],
    ['platform code importing db', 'apps/api/src/errors-x.ts', './db/client'],
  ];
  it.each(forbidden)('fails %s', async (_what, file, source) => {
    const messages = await lint(file, `import { x } from '${source}';\nexport const y = x;\n`);
    expect(rules(messages)).toContain('local/api-boundaries');
  });

  const allowed = [
    ["a module using another module's service", 'apps/api/src/modules/payments/x.ts', '../billing/service'],
    ['a module using a declared public file', 'apps/api/src/modules/payments/x.ts', '../usage/balance-rows'],
    ['a module using its own repo', 'apps/api/src/modules/orders/x.ts', './repo'],
    ['a module using db and platform', 'apps/api/src/modules/orders/x.ts', '../../db/client'],
    ['a job using a module service', 'apps/api/src/jobs/x.ts', '../modules/month-end/service'],
    ['the hub using a public file', 'apps/api/src/hub/x.ts', '../modules/payments/events'],
    ['the seed using a public file', 'apps/api/src/seed/x.ts', '../modules/auth/passwords'],
    ['app.ts wiring routes', 'apps/api/src/app.ts', './modules/orders/routes'],
    ['the operator command (an entry) wiring a module', 'apps/api/src/operator.ts', './modules/operator/service'],
  ];
  it.each(allowed)('passes %s', async (_what, file, source) => {
    const messages = await lint(file, `import { x } from '${source}';\nexport const y = x;\n`);
    expect(rules(messages)).not.toContain('local/api-boundaries');
  });

  it('names the public surface in its message', async () => {
    const [message] = await lint(
      'apps/api/src/modules/payments/x.ts',
      "import { x } from '../orders/repo';\nexport const y = x;\n",
    );
    expect(message?.message).toMatch(/private to its module.*service\.ts, placing\.ts/);
  });
});

describe('web layers (local/feature-boundaries): shared → features → app', () => {
  it.each([
    ['a feature importing another feature', 'apps/web/src/features/home/x.ts', '@/features/menu/menu-screen'],
    ['shared importing a feature', 'apps/web/src/shared/x.ts', '@/features/home/home-screen'],
    ['shared importing app', 'apps/web/src/shared/x.ts', '../app/routes'],
    ['a feature importing app', 'apps/web/src/features/home/x.ts', '@/app/routes'],
  ])('fails %s', async (_what, file, source) => {
    const messages = await lint(file, `import { x } from '${source}';\nexport const y = x;\n`);
    expect(rules(messages)).toContain('local/feature-boundaries');
  });

  it('passes a feature importing shared code', async () => {
    const messages = await lint(
      'apps/web/src/features/home/x.ts',
      "import { x } from '@/shared/api/http';\nexport const y = x;\n",
    );
    expect(rules(messages)).not.toContain('local/feature-boundaries');
  });
});
