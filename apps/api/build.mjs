// Bundles the API into dist/main.js for `npm start` (node dist/main.js), and dist/migrate.js for
// deployments that migrate as a separate step. The settings are in esbuild-options.mjs.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { API_BUNDLE_OPTIONS, contractInputs } from './esbuild-options.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

const result = await build({
  ...API_BUNDLE_OPTIONS,
  entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/migrate.ts')],
  outdir: path.join(here, 'dist'),
});

const inputs = Object.keys(result.metafile.inputs);
const contractFiles = contractInputs(result.metafile);
if (contractFiles.length === 0) throw new Error('build: @alda/contract was not bundled');
const size =
  result.metafile.outputs[path.relative(process.cwd(), path.join(here, 'dist/main.js'))]?.bytes;
console.log(
  `api: dist/main.js${size ? ` (${Math.round(size / 1024)} KiB)` : ''} from ${inputs.length} files, ${contractFiles.length} of them from @alda/contract`,
);
