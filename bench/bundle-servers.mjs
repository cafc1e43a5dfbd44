// Bundles a bench server entry (bench/servers.ts, bench/soak-server.ts) the way the API's
// production build bundles src/main.ts (apps/api/esbuild-options.mjs), so the benchmarks measure
// the code `npm start` runs rather than tsx's transform of it (tsx keeps function names with a
// `__name()` call on every closure, which a request creates by the dozen).
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_BUNDLE_OPTIONS, contractInputs } from '../apps/api/esbuild-options.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** At the depth of apps/api/src, so src/paths.ts finds the migrations from the bundle too. */
const OUT_DIR = path.resolve(here, '../apps/api/.bench');

/** Builds `bench/<name>.ts` into apps/api/.bench/<name>.js and returns that file's path. */
export async function bundleBenchEntry(name) {
  const result = await build({
    ...API_BUNDLE_OPTIONS,
    entryPoints: [path.join(here, `${name}.ts`)],
    outdir: OUT_DIR,
    logLevel: 'error',
  });
  if (contractInputs(result.metafile).length === 0) {
    throw new Error(`bench: @alda/contract was not bundled into ${name}.js`);
  }
  return path.join(OUT_DIR, `${name}.js`);
}
