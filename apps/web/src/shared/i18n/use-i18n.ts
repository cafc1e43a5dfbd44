import { useContext } from 'react';
import { I18nContext } from 'react-i18next';
import { i18n as appI18n, type Translator } from './i18n';

/**
 * The i18next instance of the tree itself (the provider's; without one, the app's): the same
 * object for its whole life. `useTranslation().i18n` is a copy made per language, fine for reading
 * the language a render shows but not for changing it (changeLanguage on the copy changes the
 * copy), nor as a dependency that must not change with the language.
 */
export function useI18n(): Translator {
  return useContext(I18nContext)?.i18n ?? appI18n;
}
