import { appConfig } from '@/shared/config/app-config';
import { sessionStore } from '@/shared/auth/session-store';
import { tokenStore } from '@/shared/auth/token-store';
import { currentLocale } from '@/shared/i18n/i18n';
import { getPlatform } from '@/shared/native/platform';
import { isOnline } from './connectivity';
import { takeEarlyResponse } from './early-requests';
import { createHttpClient } from './http';

/**
 * The app's HTTP client, wired to the device's tokens, the current locale, the session, the
 * connection (writes fail at once offline) and the platform (the native shell names itself in
 * `X-Alda-Platform`); a start-up GET that index.html already sent is not sent again.
 */
export const http = createHttpClient({
  baseUrl: appConfig.apiBaseUrl,
  getLocale: () => currentLocale(),
  tokens: tokenStore,
  onSessionExpired: () => sessionStore.signOut('expired'),
  isOnline,
  getPlatform,
  // The start-up GETs index.html sent before the app loaded (issue 45).
  takeEarly: takeEarlyResponse,
});
