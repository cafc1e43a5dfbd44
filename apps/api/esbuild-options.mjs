// The esbuild settings of the API's production bundle (build.mjs), shared with the benchmarks
// (bench/bundle-servers.mjs), so what `npm run bench` measures is the code `npm start` runs.
//
// npm packages stay external and load from node_modules at runtime (native argon2, PGlite's wasm
// and data files must not be bundled). The workspace package @alda/contract is TypeScript source,
// so it is bundled: its package exports point at .ts files Node cannot run. The migrations folder
// is not bundled; src/paths.ts finds ../drizzle relative to the running file, so a bundle must be
// written to a folder at the depth of src/ (dist/, .bench/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const contractSrc = path.resolve(here, '../../packages/contract/src');

/** Resolves `@alda/contract/<sub>` to the contract's source file so esbuild bundles it. */
const bundleContract = {
  name: 'bundle-alda-contract',
  setup(b) {
    b.onResolve({ filter: /^@alda\/contract\// }, (args) => {
      const sub = args.path.slice('@alda/contract/'.length);
      const candidates = [path.join(contractSrc, sub), path.join(contractSrc, `${sub}.ts`)];
      const found = candidates.find((file) => path.extname(file) && existsSync(file));
      if (!found)
        return { errors: [{ text: `@alda/contract/${sub} not found under ${contractSrc}` }] };
      return { path: found };
    });
  },
};

/**
 * Options for esbuild's `build` that every bundle of the API shares. No `keepNames`: tsx turns it
 * on, and its `__name()` call on every closure a request creates is work production never does.
 */
export const API_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [bundleContract],
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
};

/** Source files of @alda/contract among a build's inputs (a bundle without them is broken). */
export const contractInputs = (metafile) =>
  Object.keys(metafile.inputs).filter((file) => file.includes('packages/contract/src/'));
