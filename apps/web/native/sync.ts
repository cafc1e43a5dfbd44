// `npm run native:sync [-- android|ios]`: builds the web app for the native shell and runs
// `cap sync`, which copies it into android/ and ios/, registers the plugins and (through the
// hooks in ../package.json, hooks.ts) writes the version and the app link host (issue 15).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { capacitor } from './run';
import { nativeSettings, WEB_APP_DIR } from './settings';

const env = { ...process.env };
try {
  // A malformed APP_URL or IOS_APP_ID stops here, before the build.
  nativeSettings(env);
} catch (error) {
  console.error(`[alda] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
// In the shell the app is served from the device (capacitor://localhost, https://localhost), so
// the API needs an absolute address: the API under the public app address unless given.
const appUrl = env.APP_URL?.trim().replace(/\/+$/, '');
if (!env.VITE_API_BASE_URL && appUrl) env.VITE_API_BASE_URL = `${appUrl}/api`;
console.log(
  env.VITE_API_BASE_URL
    ? `[alda] building the web app for the native shell, API at ${env.VITE_API_BASE_URL}`
    : '[alda] warning: neither APP_URL nor VITE_API_BASE_URL is set: the app in the shell ' +
        'calls /api on the device and reaches no server. Fine for checking the projects.',
);

// npm sets npm_execpath to its own CLI when it runs this script; the same npm builds.
const npm = process.env.npm_execpath;
const buildArgs = ['run', 'build', '-w', '@alda/web'];
const options = { stdio: 'inherit', env, cwd: path.resolve(WEB_APP_DIR, '../..') } as const;
const build = npm
  ? spawnSync(process.execPath, [npm, ...buildArgs], options)
  : spawnSync('npm', buildArgs, { ...options, shell: process.platform === 'win32' });
if (build.status !== 0) {
  console.error('[alda] the web build failed');
  process.exit(build.status ?? 1);
}

try {
  capacitor(['sync', ...process.argv.slice(2)], { cwd: WEB_APP_DIR, env });
} catch (error) {
  console.error(`[alda] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
