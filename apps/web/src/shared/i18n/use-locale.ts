import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@alda/contract/locale';
import { changeLocale, currentLocale } from './i18n';

/** The current locale and a setter that switches and persists it. */
export function useLocale(): [Locale, (locale: Locale) => Promise<void>] {
  const { i18n } = useTranslation();
  const setLocale = useCallback(
    (locale: Locale) => changeLocale(locale, { instance: i18n }),
    [i18n],
  );
  return [currentLocale(i18n), setLocale];
}
