// The Capacitor CLI's hooks for this app (apps/web/package.json `capacitor:*` scripts), run once
// per platform with CAPACITOR_PLATFORM_NAME and CAPACITOR_ROOT_DIR set (issue 15, ADR 0064):
//
//   copy-after  the web build copied into a native project loses what only the web server uses:
//               source maps, the brotli/gzip copies (precompress.ts) and Vite's .vite/ manifest.
//   sync-after  writes the native settings (version, app link host) for that platform.
//
// Everything is written relative to CAPACITOR_ROOT_DIR, never to this file's own folder, so a
// sync of a copy of the app (the native projects' test) leaves the repository alone.
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { androidProperties, GENERATED, iosXcconfig, nativeSettings, WEB_COPY } from './settings';

/** Files of the web build that the native app does not serve. */
const WEB_ONLY_FILE = /\.(map|br|gz)$/;
const WEB_ONLY_DIR = '.vite';

type Platform = keyof typeof WEB_COPY;
const isPlatform = (name: string | undefined): name is Platform =>
  name === 'android' || name === 'ios';

/** Removes the web-only files under `dir`; returns how many it removed. */
async function prune(dir: string): Promise<number> {
  let removed = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name === WEB_ONLY_DIR) {
      await rm(full, { recursive: true, force: true });
      removed += 1;
    } else if (entry.isDirectory()) {
      removed += await prune(full);
    } else if (WEB_ONLY_FILE.test(entry.name)) {
      await rm(full);
      removed += 1;
    }
  }
  return removed;
}

async function main(hook: string | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  const platform = env.CAPACITOR_PLATFORM_NAME;
  if (!isPlatform(platform)) return; // the `web` platform has no native project
  const root = env.CAPACITOR_ROOT_DIR ?? process.cwd();
  if (hook === 'copy-after') {
    const removed = await prune(path.join(root, WEB_COPY[platform]));
    console.log(`[alda] ${platform}: removed ${removed} web-only files from the copied web app`);
  } else if (hook === 'sync-after') {
    const settings = nativeSettings(env);
    const text = platform === 'android' ? androidProperties(settings) : iosXcconfig(settings);
    await writeFile(path.join(root, GENERATED[platform]), text);
    console.log(
      `[alda] ${platform}: ${GENERATED[platform]} — version ${settings.versionName} ` +
        `(${settings.versionCode}), app links on ${settings.appLinkHost}`,
    );
    for (const warning of settings.warnings) console.warn(`[alda] warning: ${warning}`);
  } else {
    throw new Error(`unknown hook ${hook ?? '(none)'}: expected copy-after or sync-after`);
  }
}

main(process.argv[2], process.env).catch((error: unknown) => {
  console.error(`[alda] native hook failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
