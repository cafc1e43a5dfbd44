import errors from '@alda/contract/locales/errors.en.json';
import validation from '@alda/contract/locales/validation.en.json';
import en from '@/locales/en.json';
import type { LocaleResources } from './locale-resources';

/** English: a chunk of its own, loaded when English is shown (i18n.ts `loadLocale`). */
const resources: LocaleResources = {
  translation: en,
  errors: { ...errors, ...en.httpErrors },
  validation,
};
export default resources;
