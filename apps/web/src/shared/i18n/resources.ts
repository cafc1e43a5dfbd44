import type { Locale } from '@alda/contract/locale';
import en from './resources-en';
import fo from './resources-fo';
import type { LocaleResources } from './locale-resources';

/**
 * Both languages at once, for tests (and the key checks of locales.test.ts). The app itself loads
 * only the language in use (`loadLocale` in i18n.ts).
 */
export const resources: Record<Locale, LocaleResources> = { fo, en };
