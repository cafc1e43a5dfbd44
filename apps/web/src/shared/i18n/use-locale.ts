import { useCallback, useRef, useState } from 'react';
import { useI18n } from './use-i18n';
import type { Locale } from '@alda/contract/locale';
import { changeLocale, currentLocale } from './i18n';

/** The current locale and a setter that switches and persists it. */
export function useLocale(): [Locale, (locale: Locale) => Promise<void>] {
  const i18n = useI18n();
  const setLocale = useCallback(
    (locale: Locale) => changeLocale(locale, { instance: i18n }),
    [i18n],
  );
  return [currentLocale(i18n), setLocale];
}

/**
 * For a language picker: the locale chosen last, shown as selected at once, and the setter. The
 * texts of a language load the first time it is chosen; until they are there the screen stays in
 * the current language (nothing half-translated), but the picker already shows the choice.
 */
export function useLocaleChoice(): [Locale, (locale: Locale) => Promise<void>] {
  const [current, setLocale] = useLocale();
  const [pending, setPending] = useState<Locale | null>(null);
  const latest = useRef(0);
  const choose = useCallback(
    async (locale: Locale) => {
      const request = ++latest.current;
      setPending(locale);
      try {
        await setLocale(locale);
      } finally {
        if (request === latest.current) setPending(null);
      }
    },
    [setLocale],
  );
  return [pending ?? current, choose];
}
