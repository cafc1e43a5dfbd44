// The native projects (issue 15, ADR 0064), checked the way CI can without an Android SDK or
// Xcode: `cap sync` of the built web app into a copy of apps/web (in the OS's temp folder, so the
// repository and a developer's own generated files stay as they are), then the projects it
// leaves are read — the App Links intent filter against the contract's APP_LINK_PATHS, the
// Associated Domains entitlement, passkeys in the WebView (androidx.webkit's WebAuthn switch, the
// webcredentials entitlement), push (the APNs environment per configuration, the Android
// notification icon, the Firebase config kept out of git), the provider's other app, app id and
// version, the plugins the web code imports, and the copied web app. Needs `npm run build` first:
// `npm run test:e2e` runs it right after its build, so CI builds once.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_LINK_PATHS } from '@alda/contract/app-paths';
import { APP_VERSION, NATIVE_APP_ID } from '@alda/contract/constants';
import capacitorConfig from '../capacitor.config';
import { appConfig } from '../src/shared/config/app-config';
import { capacitor } from './run';
import { GENERATED, versionCode, WEB_APP_DIR, WEB_COPY } from './settings';

const REPO = path.resolve(WEB_APP_DIR, '../..');
const APP_URL = 'https://links.alda.example';
const HOST = 'links.alda.example';
const TEAM = 'ABCDE12345';

/** Files Capacitor rewrites on every sync and that the repository keeps (its convention). */
const SYNCED_AND_COMMITTED = [
  'android/capacitor.settings.gradle',
  'android/app/capacitor.build.gradle',
  'ios/App/CapApp-SPM/Package.swift',
] as const;

let copy = '';
let tmp = '';
const read = (file: string) => readFileSync(path.join(copy, file), 'utf8');
const readRepo = (file: string) => readFileSync(path.join(WEB_APP_DIR, file), 'utf8');

/** What sync and the builds write into the projects (their .gitignore files). */
const GENERATED_NAMES = new Set([
  'build',
  '.gradle',
  'public',
  'capacitor-cordova-android-plugins',
  'capacitor-cordova-ios-plugins',
  'capacitor.config.json',
  'capacitor.plugins.json',
  'config.xml',
  'native-settings.properties',
  'native-settings.xcconfig',
]);

/**
 * The files of a folder of apps/web that git keeps or would keep (not ignored): the project as
 * committed, without a developer's generated files. Without git (an exported tree), the folder
 * less what sync and the builds write.
 */
function projectFiles(dir: string): string[] {
  try {
    const out = execFileSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', dir],
      { cwd: WEB_APP_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return out.split('\0').filter((file) => file && existsSync(path.join(WEB_APP_DIR, file)));
  } catch {
    const walk = (rel: string): string[] =>
      readdirSync(path.join(WEB_APP_DIR, rel), { withFileTypes: true }).flatMap((entry) => {
        if (GENERATED_NAMES.has(entry.name)) return [];
        const file = `${rel}/${entry.name}`;
        return entry.isDirectory() ? walk(file) : [file];
      });
    return walk(dir);
  }
}

beforeAll(() => {
  if (!existsSync(path.join(WEB_APP_DIR, 'dist/index.html'))) {
    throw new Error('apps/web/dist has no build: run `npm run build` first (test:e2e does)');
  }
  // <tmp>/apps/web with <tmp>/node_modules → the repository's, so plugins and tools resolve.
  tmp = mkdtempSync(path.join(os.tmpdir(), 'alda-native-'));
  copy = path.join(tmp, 'apps/web');
  mkdirSync(copy, { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(tmp, 'node_modules'), 'junction');
  for (const entry of ['package.json', 'capacitor.config.ts', 'native', 'dist']) {
    cpSync(path.join(WEB_APP_DIR, entry), path.join(copy, entry), { recursive: true });
  }
  for (const file of [...projectFiles('android'), ...projectFiles('ios')]) {
    cpSync(path.join(WEB_APP_DIR, file), path.join(copy, file), { recursive: true });
  }
  const { APP_URL: _url, IOS_APP_ID: _team, VITE_API_BASE_URL: _api, ...env } = process.env;
  capacitor(['sync'], {
    cwd: copy,
    env: { ...env, APP_URL, IOS_APP_ID: `${TEAM}.${NATIVE_APP_ID}` },
    stdio: 'pipe',
  });
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// --- reading the projects -------------------------------------------------------------------

/** An XML document (the vitest project runs in jsdom, for its DOMParser). */
const xml = (text: string) => new DOMParser().parseFromString(text, 'application/xml');
const attr = (element: Element, name: string) => element.getAttribute(`android:${name}`);

type Plist = string | boolean | Plist[] | { [key: string]: Plist };

/** A property list (Info.plist, entitlements) as plain values. */
function plist(text: string): Plist {
  const value = (node: Element): Plist => {
    const children = [...node.children];
    switch (node.tagName) {
      case 'dict': {
        const dict: Record<string, Plist> = {};
        for (let i = 0; i < children.length; i += 2) {
          dict[children[i]?.textContent ?? ''] = value(children[i + 1] as Element);
        }
        return dict;
      }
      case 'array':
        return children.map(value);
      case 'true':
        return true;
      case 'false':
        return false;
      default:
        return node.textContent ?? '';
    }
  };
  return value(xml(text).documentElement.children[0] as Element);
}

/** `key=value` lines; `key = value` for an xcconfig. */
function keyValues(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^\s*([A-Za-z_][\w.]*)\s*=\s*(.*?)\s*$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1] ?? '', m[2] ?? '']),
  );
}

interface BuildConfiguration {
  name: string;
  baseConfiguration: string | null;
  settings: Record<string, string>;
}

/** The App target's build configurations of project.pbxproj, with their base .xcconfig path. */
function appTargetConfigurations(pbxproj: string): BuildConfiguration[] {
  const list =
    /Build configuration list for PBXNativeTarget "App" \*\/ = \{[^}]*?buildConfigurations = \(([^)]*)\)/.exec(
      pbxproj,
    );
  const ids = [...(list?.[1] ?? '').matchAll(/([0-9A-F]{24})/g)].map((m) => m[1] ?? '');
  return ids.map((id) => {
    const block = new RegExp(`\\t${id} /\\* (\\w+) \\*/ = \\{\\n([\\s\\S]*?)\\n\\t\\t\\};`).exec(
      pbxproj,
    );
    const body = block?.[2] ?? '';
    const baseId = /baseConfigurationReference = ([0-9A-F]{24})/.exec(body)?.[1];
    const basePath = baseId
      ? (new RegExp(`\\t${baseId} /\\* [^*]+ \\*/ = \\{[^}]*path = ([^;]+);`).exec(pbxproj)?.[1] ??
        null)
      : null;
    const settings = /buildSettings = \{\n([\s\S]*?)\n\t\t\t\};/.exec(body)?.[1] ?? '';
    return {
      name: block?.[1] ?? id,
      baseConfiguration: basePath,
      settings: Object.fromEntries(
        [...settings.matchAll(/^\t\t\t\t(\w+) = (.*?);$/gm)].map((m) => [
          m[1] ?? '',
          (m[2] ?? '').replace(/^"(.*)"$/, '$1'),
        ]),
      ),
    };
  });
}

/** An app-link path as the Android intent filter writes it (`/x/*` → pathPrefix `/x/`). */
function androidPathData(appLinkPath: string): { pathPrefix: string } | { path: string } {
  if (appLinkPath.endsWith('/*') && !appLinkPath.slice(0, -1).includes('*')) {
    return { pathPrefix: appLinkPath.slice(0, -1) };
  }
  if (appLinkPath.includes('*')) {
    throw new Error(`${appLinkPath}: only a trailing /* has an Android equivalent here`);
  }
  return { path: appLinkPath };
}

/** The @capacitor/* packages with native code (a `capacitor` field) that the web code imports. */
function importedPlugins(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const m of readFileSync(full, 'utf8').matchAll(/['"](@capacitor\/[\w-]+)['"]/g)) {
          found.add(m[1] ?? '');
        }
      }
    }
  };
  walk(path.join(WEB_APP_DIR, 'src'));
  return [...found]
    .filter((name) => {
      const manifest = JSON.parse(
        readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { capacitor?: unknown };
      return manifest.capacitor !== undefined;
    })
    .sort();
}

/**
 * A synced file with each relative path (`new File('…')`, `path: "…"`) replaced by the real
 * folder it names: the copy and the repository then read the same.
 */
function withRealPaths(text: string, dir: string): string {
  return text.replace(
    /(new File\('|path: ")(\.\.[^'"]*)(['"])/g,
    (_all, before: string, relative: string, after: string) =>
      `${before}${realpathSync(path.resolve(dir, relative))}${after}`,
  );
}

// --- the checks ---------------------------------------------------------------------------

describe('the native projects after `cap sync` of the built web app (issue 15, ADR 0064)', () => {
  it('copies the web app into both, without what only the web server serves', () => {
    const built = readFileSync(path.join(WEB_APP_DIR, 'dist/index.html'), 'utf8');
    for (const dir of Object.values(WEB_COPY)) {
      expect(read(`${dir}/index.html`), dir).toBe(built);
      const files = readdirSync(path.join(copy, dir), { recursive: true }).map(String);
      expect(files.filter((f) => f.endsWith('.js')).length, dir).toBeGreaterThan(10);
      expect(
        files.filter((f) => /\.(map|br|gz)$/.test(f) || f.split(path.sep).includes('.vite')),
      ).toEqual([]);
    }
    for (const file of [
      'android/app/src/main/assets/capacitor.config.json',
      'ios/App/App/capacitor.config.json',
    ]) {
      expect(JSON.parse(read(file))).toMatchObject({
        appId: NATIVE_APP_ID,
        appName: capacitorConfig.appName,
      });
    }
  });

  it('Android: App Links with autoVerify for the API host and exactly the contract paths', () => {
    const manifest = xml(read('android/app/src/main/AndroidManifest.xml'));
    const activity = [...manifest.querySelectorAll('activity')].find((a) =>
      [...a.querySelectorAll('intent-filter category')].some(
        (c) => attr(c, 'name') === 'android.intent.category.LAUNCHER',
      ),
    );
    expect(activity, 'the launcher activity').toBeDefined();
    const filters = [...(activity?.querySelectorAll('intent-filter') ?? [])];
    const links = filters.filter((f) =>
      [...f.querySelectorAll('data')].some((d) => attr(d, 'scheme') === 'https'),
    );
    expect(links).toHaveLength(1);
    const filter = links[0] as Element;
    expect(attr(filter, 'autoVerify')).toBe('true');
    const names = (tag: string) => [...filter.querySelectorAll(tag)].map((e) => attr(e, 'name'));
    expect(names('action')).toEqual(['android.intent.action.VIEW']);
    expect(names('category').sort()).toEqual([
      'android.intent.category.BROWSABLE',
      'android.intent.category.DEFAULT',
    ]);
    const data = [...filter.querySelectorAll('data')];
    expect(data.map((d) => attr(d, 'host')).filter(Boolean)).toEqual(['${appLinkHost}']);
    const paths = data
      .map((d) =>
        attr(d, 'pathPrefix') !== null
          ? { pathPrefix: attr(d, 'pathPrefix') }
          : attr(d, 'path') !== null
            ? { path: attr(d, 'path') }
            : null,
      )
      .filter(Boolean);
    expect(paths, 'the intent filter names APP_LINK_PATHS (contract app-paths.ts)').toEqual(
      APP_LINK_PATHS.map(androidPathData),
    );

    // The placeholder's value: the host of APP_URL, through the file Gradle reads.
    expect(read('android/app/build.gradle')).toMatch(
      /manifestPlaceholders = \[appLinkHost: nativeSettings\.getProperty\('appLinkHost'\)\]/,
    );
    expect(keyValues(read(GENERATED.android)).appLinkHost).toBe(HOST);

    // The app's own scheme (fo.alda.selfcare://betaling/<order>).
    const custom = filters.find((f) =>
      [...f.querySelectorAll('data')].some(
        (d) => attr(d, 'scheme') === '@string/custom_url_scheme',
      ),
    );
    expect(custom).toBeDefined();
    const strings = xml(read('android/app/src/main/res/values/strings.xml'));
    const string = (name: string) =>
      [...strings.querySelectorAll('string')].find((s) => s.getAttribute('name') === name)
        ?.textContent;
    expect(string('custom_url_scheme')).toBe(NATIVE_APP_ID);
    expect(string('app_name')).toBe(capacitorConfig.appName);
  });

  it('Android: may ask whether the partner app is installed (<queries>)', () => {
    const manifest = xml(read('android/app/src/main/AndroidManifest.xml'));
    const packages = [...manifest.querySelectorAll('queries > package')].map((p) =>
      attr(p, 'name'),
    );
    expect(packages).toContain(appConfig.partnerApp.androidPackage);
  });

  it('Android: passkeys in the WebView, for the relying parties linked to the app (androidx.webkit)', () => {
    // The app module depends on androidx.webkit itself (Capacitor's dependency on it is
    // `implementation`, not visible to the app's code), at Capacitor's version from
    // variables.gradle: setWebAuthenticationSupport exists from 1.12.0.
    expect(read('android/app/build.gradle')).toMatch(
      /^\s*implementation "androidx\.webkit:webkit:\$androidxWebkitVersion"$/m,
    );
    const version = /^\s*androidxWebkitVersion = '(\d+)\.(\d+)\.(\d+)[^']*'$/m
      .exec(read('android/variables.gradle'))
      ?.slice(1)
      .map(Number);
    expect(version, 'androidxWebkitVersion in variables.gradle').toBeDefined();
    const [major = 0, minor = 0] = version ?? [];
    expect(major > 1 || (major === 1 && minor >= 12), `androidx.webkit ${version?.join('.')}`).toBe(
      true,
    );

    // MainActivity turns WebAuthn on for the app's relying parties, where the WebView has it,
    // once BridgeActivity's onCreate has made the WebView.
    const activity = read('android/app/src/main/java/fo/alda/selfcare/MainActivity.java').replace(
      /\/\/.*$/gm,
      '',
    );
    expect(activity).toMatch(/class MainActivity extends BridgeActivity/);
    expect(activity).toMatch(
      /super\.onCreate\(savedInstanceState\);[\s\S]*WebViewFeature\.isFeatureSupported\(\s*WebViewFeature\.WEB_AUTHENTICATION\s*\)[\s\S]*WebSettingsCompat\.setWebAuthenticationSupport\(\s*this\.bridge\.getWebView\(\)\.getSettings\(\),\s*WebSettingsCompat\.WEB_AUTHENTICATION_SUPPORT_FOR_APP\s*\)/,
    );
  });

  it('Android: app id from the contract, version from APP_VERSION through the generated file', () => {
    const gradle = read('android/app/build.gradle');
    expect(/namespace "([^"]+)"/.exec(gradle)?.[1]).toBe(NATIVE_APP_ID);
    expect(/applicationId "([^"]+)"/.exec(gradle)?.[1]).toBe(NATIVE_APP_ID);
    expect(gradle).toMatch(/versionCode nativeSettings\.getProperty\('versionCode'\) as Integer/);
    expect(gradle).toMatch(/versionName nativeSettings\.getProperty\('versionName'\)/);
    expect(keyValues(read(GENERATED.android))).toMatchObject({
      versionName: APP_VERSION,
      versionCode: String(versionCode(APP_VERSION)),
    });
    expect(existsSync(path.join(copy, 'android/app/src/main/java/fo/alda/selfcare'))).toBe(true);
    // The tokens in Preferences stay on the device: no cloud backup restores them elsewhere.
    const application = xml(read('android/app/src/main/AndroidManifest.xml')).querySelector(
      'application',
    );
    expect(application && attr(application, 'allowBackup')).toBe('false');
  });

  it('iOS: the Associated Domains entitlement names the API host, signed with the team', () => {
    const configurations = appTargetConfigurations(read('ios/App/App.xcodeproj/project.pbxproj'));
    expect(configurations.map((c) => c.name).sort()).toEqual(['Debug', 'Release']);
    for (const configuration of configurations) {
      expect(configuration.settings.CODE_SIGN_ENTITLEMENTS, configuration.name).toBe(
        'App/App.entitlements',
      );
    }
    // applinks: Universal Links; webcredentials: the host's passkeys in the app's WKWebView.
    expect(plist(read('ios/App/App/App.entitlements'))).toEqual({
      'com.apple.developer.associated-domains': [
        'applinks:$(APP_LINK_HOST)',
        'webcredentials:$(APP_LINK_HOST)',
      ],
      'aps-environment': '$(APS_ENVIRONMENT)',
    });
    expect(keyValues(read(GENERATED.ios))).toMatchObject({
      APP_LINK_HOST: HOST,
      DEVELOPMENT_TEAM: TEAM,
    });
  });

  it('iOS: push is entitled, as development in both configurations (Xcode makes it production when it exports for the App Store)', () => {
    // A token belongs to one APNs: the API's APNS_URL must name the one the build was signed for.
    const environments = Object.fromEntries(
      appTargetConfigurations(read('ios/App/App.xcodeproj/project.pbxproj')).map(
        ({ name, baseConfiguration }) => [
          name,
          keyValues(read(path.join('ios/App', baseConfiguration ?? ''))).APS_ENVIRONMENT,
        ],
      ),
    );
    expect(environments).toEqual({ Debug: 'development', Release: 'development' });
  });

  it('a push arriving while the app is open is shown, in both projects', () => {
    for (const file of [
      'android/app/src/main/assets/capacitor.config.json',
      'ios/App/App/capacitor.config.json',
    ]) {
      const synced = JSON.parse(read(file)) as {
        plugins?: { PushNotifications?: { presentationOptions?: string[] } };
      };
      expect(synced.plugins?.PushNotifications?.presentationOptions, file).toContain('alert');
    }
  });

  it('Android: a push has its status bar icon; the Firebase config stays out of git', () => {
    const application = xml(read('android/app/src/main/AndroidManifest.xml')).querySelector(
      'application',
    );
    const icon = [...(application?.querySelectorAll(':scope > meta-data') ?? [])].find(
      (m) => attr(m, 'name') === 'com.google.firebase.messaging.default_notification_icon',
    );
    const resource = icon && attr(icon, 'resource');
    expect(resource).toMatch(/^@drawable\/\w+$/);
    const drawable = `android/app/src/main/res/drawable/${resource?.slice('@drawable/'.length)}.xml`;
    expect(existsSync(path.join(copy, drawable)), drawable).toBe(true);
    expect(xml(read(drawable)).documentElement.tagName).toBe('vector');

    // google-services.json carries the Firebase project's API key: each build machine adds it,
    // and the app applies Google's plugin only when it is there.
    expect(read('android/app/build.gradle')).toMatch(
      /file\('google-services\.json'\)[\s\S]*apply plugin: 'com\.google\.gms\.google-services'/,
    );
    const ignored = spawnSync('git', ['check-ignore', '-q', 'android/app/google-services.json'], {
      cwd: WEB_APP_DIR,
    });
    // Without git, or outside a checkout (an exported tree: 128), there is nothing to keep out.
    if (!ignored.error && ignored.status !== 128) {
      expect(ignored.status, 'android/app/google-services.json is git-ignored').toBe(0);
    }
  });

  it('iOS: lists the partner app scheme (LSApplicationQueriesSchemes) and its own URL scheme', () => {
    const info = plist(read('ios/App/App/Info.plist')) as Record<string, Plist>;
    const scheme = new URL(appConfig.partnerApp.iosUrlScheme).protocol.replace(/:$/, '');
    expect(info.LSApplicationQueriesSchemes).toContain(scheme);
    expect(info.CFBundleURLTypes).toEqual([
      {
        CFBundleURLName: '$(PRODUCT_BUNDLE_IDENTIFIER)',
        CFBundleURLSchemes: ['$(PRODUCT_BUNDLE_IDENTIFIER)'],
      },
    ]);
    expect(info.CFBundleDisplayName).toBe(capacitorConfig.appName);
  });

  it('iOS: bundle id from the contract, version from APP_VERSION through the xcconfig', () => {
    const configurations = appTargetConfigurations(read('ios/App/App.xcodeproj/project.pbxproj'));
    for (const { name, settings, baseConfiguration } of configurations) {
      expect(settings.PRODUCT_BUNDLE_IDENTIFIER, name).toBe(NATIVE_APP_ID);
      // Set in the project, they would hide the generated values.
      expect(settings.MARKETING_VERSION, name).toBeUndefined();
      expect(settings.CURRENT_PROJECT_VERSION, name).toBeUndefined();
      expect(baseConfiguration, name).toMatch(/^\.\.\/\w+\.xcconfig$/);
      const base = read(path.join('ios/App', baseConfiguration ?? ''));
      expect(base, `${baseConfiguration} includes the generated settings`).toMatch(
        /^#include "native-settings\.xcconfig"$/m,
      );
    }
    expect(keyValues(read(GENERATED.ios))).toMatchObject({
      MARKETING_VERSION: APP_VERSION,
      CURRENT_PROJECT_VERSION: String(versionCode(APP_VERSION)),
    });
    const info = plist(read('ios/App/App/Info.plist')) as Record<string, Plist>;
    expect(info.CFBundleShortVersionString).toBe('$(MARKETING_VERSION)');
    expect(info.CFBundleVersion).toBe('$(CURRENT_PROJECT_VERSION)');
  });

  it('registers every plugin the web code imports, in both projects', () => {
    const plugins = importedPlugins();
    expect(plugins.length).toBeGreaterThanOrEqual(7);
    const settingsGradle = read('android/capacitor.settings.gradle');
    const buildGradle = read('android/app/capacitor.build.gradle');
    const packageSwift = read('ios/App/CapApp-SPM/Package.swift');
    const androidProjects = new Map(
      [
        ...settingsGradle.matchAll(/project\('(:[\w-]+)'\)\.projectDir = new File\('([^']+)'\)/g),
      ].map((m) => [realpathSync(path.resolve(copy, 'android', m[2] ?? '')), m[1] ?? '']),
    );
    const swiftPackages = new Map(
      [...packageSwift.matchAll(/\.package\(name: "([^"]+)", path: "([^"]+)"\)/g)].map((m) => [
        realpathSync(path.resolve(copy, 'ios/App/CapApp-SPM', m[2] ?? '')),
        m[1] ?? '',
      ]),
    );
    for (const plugin of plugins) {
      const dir = realpathSync(path.join(REPO, 'node_modules', plugin));
      const project = androidProjects.get(path.join(dir, 'android'));
      expect(project, `${plugin} in capacitor.settings.gradle`).toBeDefined();
      expect(buildGradle, `${plugin} in app/capacitor.build.gradle`).toContain(
        `implementation project('${project}')`,
      );
      const swift = swiftPackages.get(dir);
      expect(swift, `${plugin} in Package.swift`).toBeDefined();
      expect(packageSwift).toContain(`.product(name: "${swift}", package: "${swift}")`);
    }
  });

  it('leaves the committed plugin registrations as they are: the repository is in sync', () => {
    for (const file of SYNCED_AND_COMMITTED) {
      const dir = path.dirname(file);
      expect(
        withRealPaths(readRepo(file), path.join(WEB_APP_DIR, dir)),
        `${file}: run \`npm run native:sync\` and commit it`,
      ).toBe(withRealPaths(read(file), path.join(copy, dir)));
    }
  });

  it('keeps the app icons and splash screens the generator made from assets/logo.svg', () => {
    expect(existsSync(path.join(WEB_APP_DIR, 'assets/logo.svg'))).toBe(true);
    const res = 'android/app/src/main/res';
    for (const file of [
      `${res}/mipmap-xxxhdpi/ic_launcher.png`,
      `${res}/mipmap-xxxhdpi/ic_launcher_round.png`,
      `${res}/mipmap-xxxhdpi/ic_launcher_foreground.png`,
      `${res}/mipmap-xxxhdpi/ic_launcher_background.png`,
      `${res}/drawable/splash.png`,
      `${res}/drawable-night/splash.png`,
      'ios/App/App/Assets.xcassets/AppIcon.appiconset/AppIcon-512@2x.png',
    ]) {
      expect(existsSync(path.join(copy, file)), file).toBe(true);
    }
    const splash = JSON.parse(
      read('ios/App/App/Assets.xcassets/Splash.imageset/Contents.json'),
    ) as {
      images: { filename: string; appearances?: { value: string }[] }[];
    };
    const dark = splash.images.filter((i) => i.appearances?.some((a) => a.value === 'dark'));
    expect(splash.images.length - dark.length).toBe(3);
    expect(dark).toHaveLength(3);
    for (const image of splash.images) {
      expect(
        existsSync(path.join(copy, 'ios/App/App/Assets.xcassets/Splash.imageset', image.filename)),
        image.filename,
      ).toBe(true);
    }
  });
});
