import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { i18n as appI18n } from './i18n';
import type { TFunction, Translator } from './translator';

// Without a provider, the app's instance (as react-i18next fell back to its global one).
const I18nContext = createContext<Translator>(appI18n);

/** Gives the components below `i18n` (the app's instance, or a test's own). */
export function I18nProvider({ i18n, children }: { i18n: Translator; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/**
 * The translator of the tree. The component renders again whenever the language or the texts
 * change, and then gets a new `t` (bound to the language it renders in), so a `useMemo` or
 * `useCallback` that lists `t` follows the language. `i18n` stays the same instance.
 */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  const i18n = useContext(I18nContext);
  const { t } = useSyncExternalStore(i18n.subscribe, i18n.getState, i18n.getState);
  return { t, i18n };
}
