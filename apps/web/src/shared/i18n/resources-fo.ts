import errors from '@alda/contract/locales/errors.fo.json';
import validation from '@alda/contract/locales/validation.fo.json';
import fo from '@/locales/fo.json';
import type { LocaleResources } from './locale-resources';

/** Faroese: a chunk of its own, loaded when Faroese is shown (i18n.ts `loadLocale`). */
const resources: LocaleResources = {
  translation: fo,
  errors: { ...errors, ...fo.httpErrors },
  validation,
};
export default resources;
