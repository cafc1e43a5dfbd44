/**
 * Build-time configuration of the web app. Every value can be overridden with a `VITE_*`
 * variable at build time (see src/vite-env.d.ts); the defaults are the production values.
 */
const env = import.meta.env;

const pick = (value: string | undefined, fallback: string) => (value && value.trim()) || fallback;

export const appConfig = {
  apiBaseUrl: pick(env.VITE_API_BASE_URL, '/api'),
  /** Where the Alda app itself is listed (used by the upgrade prompts). */
  store: {
    ios: pick(env.VITE_APP_STORE_URL, 'https://apps.apple.com/fo/app/alda/id6479125530'),
    android: pick(
      env.VITE_PLAY_STORE_URL,
      'https://play.google.com/store/apps/details?id=fo.alda.selfcare',
    ),
  },
  /** The provider's other app: 2-for-1 offers from partner shops (SPEC §1). */
  partnerApp: {
    /** iOS opens it by URL scheme (listed in LSApplicationQueriesSchemes of the iOS project). */
    iosUrlScheme: pick(env.VITE_PARTNER_APP_IOS_SCHEME, 'alda2for1://'),
    /** Android opens it by package name. */
    androidPackage: pick(env.VITE_PARTNER_APP_ANDROID_PACKAGE, 'fo.alda.tveirfyriein'),
    appStoreUrl: pick(
      env.VITE_PARTNER_APP_STORE_URL,
      'https://apps.apple.com/fo/app/2-fyri-1/id6479125677',
    ),
    playStoreUrl: pick(
      env.VITE_PARTNER_PLAY_STORE_URL,
      'https://play.google.com/store/apps/details?id=fo.alda.tveirfyriein',
    ),
  },
} as const;

/**
 * The address of an API path (relative to the API base, e.g. `/receipt-files/…`) for something
 * the HTTP client does not send: the payment hub's WebSocket, a page for the in-app browser.
 * Absolute in the native shell, where the API base is.
 */
export const apiUrl = (path: string, apiBaseUrl: string = appConfig.apiBaseUrl): string =>
  `${apiBaseUrl.replace(/\/$/, '')}${path}`;
