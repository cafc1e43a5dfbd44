// `npm start`: build the web app and the API, then run the API serving the app and /api with
// demo data on the embedded database (PGlite under ./data). Migrations and the demo seed run
// inside the API at start (the seed only when the database is empty).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const env = {
  ...process.env,
  DEMO_MODE: process.env.DEMO_MODE ?? 'true',
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
};
const api = spawn(process.execPath, [path.join(root, 'apps/api/dist/main.js')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code) => process.exit(code ?? 0));
