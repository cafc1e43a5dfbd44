import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { injectManifest } from 'workbox-build';
import { precacheList, type BundleFile, type PrecacheOptions } from './service-worker-precache';

/** The files of `public/`, relative to it, as `vite build` copies them. */
async function publicFilesOf(publicDir: string): Promise<string[]> {
  if (!publicDir) return [];
  const entries = await readdir(publicDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) =>
      path
        .relative(publicDir, path.join(entry.parentPath, entry.name))
        .split(path.sep)
        .join('/'),
    );
}

/**
 * `src/service-worker/sw.ts` with the Workbox modules it imports, as one classic script. The
 * contract's push schema (push.ts) brings zod/mini, which goes through the module that switches
 * on jitless mode first, as in the app (vite.config.ts): sw.js is served under the same CSP,
 * without 'unsafe-eval'.
 */
async function bundleWorker(root: string): Promise<string> {
  const output = (await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    resolve: {
      alias: [
        {
          find: /^zod\/mini$/,
          replacement: path.join(root, 'src/shared/config/zod-mini-jitless.ts'),
        },
      ],
    },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: true,
      sourcemap: false,
      target: 'es2022',
      lib: {
        entry: path.join(root, 'src/service-worker/sw.ts'),
        formats: ['iife'],
        name: 'aldaServiceWorker',
        fileName: () => 'sw.js',
      },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunk = (Array.isArray(output) ? output[0] : output)?.output[0];
  if (!chunk || chunk.type !== 'chunk') throw new Error('service worker: no bundle');
  return chunk.code;
}

/**
 * Writes `sw.js` (from `src/service-worker/sw.ts`, on Workbox) into the build, with Workbox's
 * precache manifest of the shell's files (ADR 0069, 0074): `service-worker-precache.ts` says
 * which files the shell is, workbox-build gives each its revision (index.html and the public files
 * by content; the hashed assets by their name). Runs when the bundle is written, before the
 * precompress step compresses sw.js with the rest. Build only; the dev server has no worker.
 */
export function serviceWorker(options: Pick<PrecacheOptions, 'shellModules'>): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'alda:service-worker',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(_output, bundle) {
      const outDir = path.resolve(config.root, config.build.outDir);
      const precache = precacheList(bundle as unknown as Record<string, BundleFile>, {
        shellModules: options.shellModules,
        publicFiles: await publicFilesOf(config.publicDir),
      });
      const work = await mkdtemp(path.join(os.tmpdir(), 'alda-sw-'));
      try {
        const swSrc = path.join(work, 'sw.js');
        await writeFile(swSrc, await bundleWorker(config.root));
        const { count, size, warnings } = await injectManifest({
          swSrc,
          swDest: path.join(outDir, 'sw.js'),
          globDirectory: outDir,
          globPatterns: precache.map((url) => url.slice(1)),
          // Hashed names change with their content: no revision needed.
          dontCacheBustURLsMatching: /^assets\//,
          maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        });
        for (const warning of warnings) config.logger.warn(`service worker: ${warning}`);
        if (count !== precache.length)
          throw new Error(`service worker: ${count} of ${precache.length} shell files found`);
        config.logger.info(
          `service worker: ${count} files precached (${(size / 1024).toFixed(1)} KiB)`,
        );
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}
