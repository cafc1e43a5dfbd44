import type { QueryClient } from '@tanstack/react-query';
import type { Locale } from '@alda/contract/locale';
import { chosenLine as defaultChosenLine, type ChosenLine } from '@/shared/account/chosen-line';
import { loadAccountData, type AccountLoaders } from '@/shared/api/account-data';
import { anyAnswer, type HttpClient } from '@/shared/api/http';
import { fetchMe } from '@/shared/auth/current-user';
import type { SessionStore } from '@/shared/auth/session-store';
import type { TokenStore } from '@/shared/auth/token-store';
import { followAccountLocale } from '@/shared/i18n/i18n';
import type { AppServices } from '@/shared/services/app-services';

export interface ServiceDeps {
  http: HttpClient;
  session: SessionStore;
  tokens: TokenStore;
  /** The query cache, loaded when the data goes into it. */
  queryClient: () => Promise<QueryClient>;
  loaders: AccountLoaders;
  /** The line chosen on this device; forgotten at logout (the next person starts fresh). */
  chosenLine?: Pick<ChosenLine, 'clear'>;
  /** Shows the account's language unless this device chose one (issue 33 §3). */
  followLocale?: (locale: Locale) => Promise<void>;
}

/** The app's implementation of what features may ask of it (login, logout, reload). */
export function createAppServices({
  http,
  session,
  tokens,
  queryClient,
  loaders,
  chosenLine = defaultChosenLine,
  followLocale = followAccountLocale,
}: ServiceDeps): AppServices {
  return {
    http,
    session,
    async signIn(pair) {
      await tokens.set(pair);
      const me = await fetchMe(http);
      if (!me.ok) {
        await tokens.clear();
        return me;
      }
      // The same loads as start-up step 5, done before the session flips so the guards of the
      // next screen (home → welcome) see the data — and, where this device has no language of
      // its own, in the account's language (issue 33 §3).
      await Promise.all([
        queryClient().then((client) => loadAccountData(client, loaders)),
        followLocale(me.data.locale),
      ]);
      session.setUser(me.data);
      return me;
    },
    async signOut() {
      const refreshToken = tokens.getRefreshToken();
      if (refreshToken) {
        // Best effort: revoke the refresh token on the server; logging out works offline too.
        const result = await http.post('/auth/logout', { refreshToken }, anyAnswer, {
          skipAuthRefresh: true,
        });
        if (!result.ok) console.warn('Logout request failed', result.error);
      }
      await Promise.all([tokens.clear(), chosenLine.clear().catch(() => {})]);
      session.signOut('logout');
    },
    async reloadAccountData() {
      await loadAccountData(await queryClient(), loaders);
    },
  };
}
