import type { Locale } from '@alda/contract/locale';
import enLater from '@/locales/en.json?later';
import foLater from '@/locales/fo.json?later';
import en from './resources-en';
import fo from './resources-fo';
import type { LaterTexts, LocaleResources, Messages } from './locale-resources';

const whole = (first: LocaleResources, later: LaterTexts): LocaleResources<Messages> => ({
  ...first,
  translation: { ...first.translation, ...later },
});

/**
 * Both languages at once and whole, for tests (and the key checks of locales.test.ts). The app
 * itself loads only the language in use, the first screens' texts before the rest (i18n.ts).
 */
export const resources: Record<Locale, LocaleResources<Messages>> = {
  fo: whole(fo, foLater),
  en: whole(en, enLater),
};
