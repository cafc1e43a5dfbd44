// `npm run native:android` / `npm run native:ios`: opens the native project in its IDE, or says
// plainly that the IDE is not on this machine (issue 15). `cap open` alone logs an error and
// still exits 0 when Android Studio is missing, and on Linux it hands an .xcodeproj to xdg-open.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { capacitor } from './run';
import { WEB_APP_DIR } from './settings';

/** Where the Capacitor CLI looks for Android Studio (its config.js), unless on Windows. */
function androidStudioPath(): string | null {
  if (process.env.CAPACITOR_ANDROID_STUDIO_PATH) return process.env.CAPACITOR_ANDROID_STUDIO_PATH;
  if (process.platform === 'darwin') return '/Applications/Android Studio.app';
  if (process.platform === 'linux') return '/usr/local/android-studio/bin/studio.sh';
  return null; // Windows: the CLI reads the registry itself
}

/** Why the IDE cannot be opened here, or null when it can. */
function missingIde(platform: 'android' | 'ios'): string | null {
  if (platform === 'ios') {
    if (process.platform !== 'darwin') {
      return 'Xcode runs only on macOS. On a Mac with Xcode: npm ci && npm run native:sync && npm run native:ios (or open apps/web/ios/App/App.xcodeproj).';
    }
    const xcode = spawnSync('xcode-select', ['-p'], { encoding: 'utf8' });
    return xcode.status === 0
      ? null
      : 'Xcode is not installed (xcode-select -p found none). Install it from the App Store.';
  }
  const studio = androidStudioPath();
  if (studio === null || existsSync(studio)) return null;
  return (
    `Android Studio is not installed at ${studio}. Install it ` +
    '(https://developer.android.com/studio) or set CAPACITOR_ANDROID_STUDIO_PATH to its ' +
    'launcher; then open apps/web/android.'
  );
}

const platform = process.argv[2];
if (platform !== 'android' && platform !== 'ios') {
  console.error('usage: tsx apps/web/native/open.ts android|ios');
  process.exit(2);
}
const missing = missingIde(platform);
if (missing) {
  console.error(`[alda] ${missing}`);
  process.exit(1);
}
try {
  capacitor(['open', platform], { cwd: WEB_APP_DIR });
} catch (error) {
  console.error(`[alda] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
