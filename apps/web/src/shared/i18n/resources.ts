import type { Locale } from '@alda/contract/locale';
import enLater from './later-en';
import foLater from './later-fo';
import en from './resources-en';
import fo from './resources-fo';
import type { LaterResources, LocaleResources, Messages } from './locale-resources';

const whole = (first: LocaleResources, later: LaterResources): LocaleResources<Messages> => ({
  ...first,
  translation: { ...first.translation, ...later.translation },
  errors: { ...later.errors, ...first.errors },
});

/**
 * Both languages at once and whole, for tests (and the key checks of locales.test.ts). The app
 * itself loads only the language in use, the first screens' texts before the rest (i18n.ts).
 */
export const resources: Record<Locale, LocaleResources<Messages>> = {
  fo: whole(fo, foLater),
  en: whole(en, enLater),
};
