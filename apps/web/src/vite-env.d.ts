/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base of the self-care API; `/api` (same origin) by default. The native shell needs an absolute URL. */
  readonly VITE_API_BASE_URL?: string;
  /** Sentry DSN; error reporting is off (and not even downloaded) when unset. */
  readonly VITE_SENTRY_DSN?: string;
  readonly VITE_APP_STORE_URL?: string;
  readonly VITE_PLAY_STORE_URL?: string;
  readonly VITE_PARTNER_APP_IOS_SCHEME?: string;
  readonly VITE_PARTNER_APP_ANDROID_PACKAGE?: string;
  readonly VITE_PARTNER_APP_STORE_URL?: string;
  readonly VITE_PARTNER_PLAY_STORE_URL?: string;
  /** Polling interval in ms (SPEC §4: 60 000); the browser journeys build with a short one. */
  readonly VITE_POLL_INTERVAL_MS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

