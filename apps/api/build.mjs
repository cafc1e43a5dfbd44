// Bundles the API into dist/main.js for `npm start` (node dist/main.js), and dist/migrate.js for
// deployments that migrate as a separate step.
//
// npm packages stay external and load from node_modules at runtime (native argon2, PGlite's wasm
// and data files must not be bundled). The workspace package @alda/contract is TypeScript source,
// so it is bundled: its package exports point at .ts files Node cannot run. The migrations folder
// is not bundled; src/paths.ts finds ../drizzle relative to the running file, which is the same
// folder from src/ (tsx) and from dist/.
import { build } from 'esbuild';
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

const result = await build({
  entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/migrate.ts')],
  outdir: path.join(here, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [bundleContract],
  sourcemap: 'linked',
  logLevel: 'warning',
  metafile: true,
});

const inputs = Object.keys(result.metafile.inputs);
const contractFiles = inputs.filter((file) => file.includes('packages/contract/src/'));
if (contractFiles.length === 0) throw new Error('build: @alda/contract was not bundled');
const size =
  result.metafile.outputs[path.relative(process.cwd(), path.join(here, 'dist/main.js'))]?.bytes;
console.log(
  `api: dist/main.js${size ? ` (${Math.round(size / 1024)} KiB)` : ''} from ${inputs.length} files, ${contractFiles.length} of them from @alda/contract`,
);
