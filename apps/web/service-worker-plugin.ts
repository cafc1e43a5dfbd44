import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transformWithOxc, type Plugin, type ResolvedConfig } from 'vite';
import {
  buildVersion,
  precacheList,
  type BundleFile,
  type PrecacheOptions,
} from './service-worker-precache';

const PLACEHOLDER = 'self.__ALDA_SW_BUILD__';

/**
 * Writes `sw.js` (from `src/service-worker/sw.ts`) into the build with the build's version and
 * precache list (ADR 0069). Build only; the dev server has no service worker.
 */
export function serviceWorker(options: Pick<PrecacheOptions, 'shellModules'>): Plugin {
  let outDir = '';
  let publicDir = '';
  let root = '';
  let logger: ResolvedConfig['logger'] | undefined;
  return {
    name: 'alda:service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
      logger = config.logger;
    },
    async writeBundle(_output, bundle) {
      const publicFiles = publicDir
        ? await readdir(publicDir, { recursive: true, withFileTypes: true }).then((entries) =>
            entries
              .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
              .map((entry) =>
                path
                  .relative(publicDir, path.join(entry.parentPath, entry.name))
                  .split(path.sep)
                  .join('/'),
              ),
          )
        : [];
      const precache = precacheList(bundle as unknown as Record<string, BundleFile>, {
        shellModules: options.shellModules,
        publicFiles,
      });
      const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const build = { version: buildVersion(precache, indexHtml), precache };
      const source = path.join(root, 'src/service-worker/sw.ts');
      const { code } = await transformWithOxc(await readFile(source, 'utf8'), source, {
        lang: 'ts',
      });
      if (!code.includes(PLACEHOLDER)) throw new Error(`service worker: ${PLACEHOLDER} is missing`);
      // A classic worker script: no module syntax left.
      const script = code
        .replace(PLACEHOLDER, JSON.stringify(build))
        .replace(/^export \{\};?\s*$/m, '');
      await writeFile(path.join(outDir, 'sw.js'), script);
      logger?.info(`service worker: ${precache.length} files precached, version ${build.version}`);
    },
  };
}
