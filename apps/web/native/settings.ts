// What the native projects (android/, ios/) take from the rest of the repository, in one place
// (issue 15, ADR 0064). `npm run native:sync` writes it into two generated, ignored files that
// the projects read: Gradle loads android/native-settings.properties (versionName, versionCode,
// the App Links host as a manifest placeholder) and Xcode includes ios/native-settings.xcconfig
// (MARKETING_VERSION, CURRENT_PROJECT_VERSION, APP_LINK_HOST for the Associated Domains
// entitlement) from ios/debug.xcconfig and ios/release.xcconfig.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_VERSION, NATIVE_APP_ID } from '@alda/contract/constants';

/** apps/web: the Capacitor app (capacitor.config.ts, package.json, dist/, android/, ios/). */
export const WEB_APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The generated files, relative to the Capacitor app's directory. */
export const GENERATED = {
  android: 'android/native-settings.properties',
  ios: 'ios/native-settings.xcconfig',
} as const;

/** Where `cap copy` puts the web build in each native project. */
export const WEB_COPY = {
  android: 'android/app/src/main/assets/public',
  ios: 'ios/App/App/public',
} as const;

export interface NativeSettings {
  /** The version customers see: the app's APP_VERSION (what it reports to POST /api/status). */
  versionName: string;
  /** The build number the stores compare: major·10000 + minor·100 + patch (3.0.0 → 30000). */
  versionCode: number;
  /** The host of the public app address (APP_URL) whose links the app claims (ADR 0054). */
  appLinkHost: string;
  /**
   * The Apple team that signs the iOS app: the `<TEAM ID>` of IOS_APP_ID, the API's setting
   * whose apple-app-site-association names the app; null: chosen in Xcode.
   */
  developmentTeam: string | null;
  /** What the developer should know (an unset or plain-HTTP APP_URL). */
  warnings: string[];
}

/** major·10000 + minor·100 + patch of a plain x.y.z version; minor and patch stay below 100. */
export function versionCode(version: string): number {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new Error(`APP_VERSION must be x.y.z for the native build number: ${version}`);
  const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number];
  if (minor > 99 || patch > 99) {
    throw new Error(`APP_VERSION ${version}: minor and patch must be below 100 for versionCode`);
  }
  return major * 10_000 + minor * 100 + patch;
}

/** The team id of an IOS_APP_ID (`ABCDE12345.fo.alda.selfcare`), which must name this app. */
function teamOf(iosAppId: string | undefined): string | null {
  const value = iosAppId?.trim();
  if (!value) return null;
  const match = /^([A-Z0-9]{10})\.(.+)$/.exec(value);
  if (!match || match[2] !== NATIVE_APP_ID) {
    throw new Error(
      `IOS_APP_ID must be <TEAM ID>.${NATIVE_APP_ID}, e.g. ABCDE12345.${NATIVE_APP_ID}`,
    );
  }
  return match[1] ?? null;
}

/**
 * The settings from the environment, read under the names the API gives them
 * (apps/api/src/config.ts), so one value serves both sides: `APP_URL`, the public web app
 * address (the app claims the links of the host whose `/.well-known` files the API serves;
 * unset, like the API, a local address), and `IOS_APP_ID` (optional; its team signs the app).
 */
export function nativeSettings(
  env: Record<string, string | undefined> = process.env,
  version: string = APP_VERSION,
): NativeSettings {
  const warnings: string[] = [];
  const raw = env.APP_URL?.trim();
  let url: URL;
  try {
    url = new URL(raw || 'http://localhost');
  } catch {
    throw new Error(`APP_URL is not a URL: ${raw}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new Error(
      `APP_URL must be an http(s) address without query, e.g. https://minsida.alda.fo`,
    );
  }
  if (!raw) {
    warnings.push(
      'APP_URL is not set: the app claims links of localhost. Set it to the public address ' +
        "(the API's APP_URL) for a build customers get.",
    );
  } else if (url.protocol !== 'https:') {
    warnings.push(
      `APP_URL is ${url.protocol}: App Links and Universal Links work only over HTTPS.`,
    );
  }
  if (url.pathname !== '/') {
    warnings.push(
      `APP_URL has the path ${url.pathname}: the app claims links at the root of ${url.hostname}, ` +
        'as the /.well-known files name them.',
    );
  }
  return {
    versionName: version,
    versionCode: versionCode(version),
    appLinkHost: url.hostname,
    developmentTeam: teamOf(env.IOS_APP_ID),
    warnings,
  };
}

const HEADER = 'Written by `npm run native:sync` (apps/web/native/settings.ts). Not committed.';

/** android/native-settings.properties, read by android/app/build.gradle. */
export function androidProperties(settings: NativeSettings): string {
  return [
    `# ${HEADER}`,
    `versionName=${settings.versionName}`,
    `versionCode=${settings.versionCode}`,
    `appLinkHost=${settings.appLinkHost}`,
    '',
  ].join('\n');
}

/** ios/native-settings.xcconfig, included by ios/debug.xcconfig and ios/release.xcconfig. */
export function iosXcconfig(settings: NativeSettings): string {
  return [
    `// ${HEADER}`,
    `MARKETING_VERSION = ${settings.versionName}`,
    `CURRENT_PROJECT_VERSION = ${settings.versionCode}`,
    `APP_LINK_HOST = ${settings.appLinkHost}`,
    ...(settings.developmentTeam ? [`DEVELOPMENT_TEAM = ${settings.developmentTeam}`] : []),
    '',
  ].join('\n');
}
