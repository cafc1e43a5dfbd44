import errors from '@alda/contract/locales/errors.fo.json?first';
import validation from '@alda/contract/locales/validation.fo.json';
import texts from '@/locales/fo.json?first';
import type { LocaleResources } from './locale-resources';

/**
 * Faroese: a chunk of its own, loaded when Faroese is shown (i18n.ts `loadLocale`), with the
 * texts the first screens show; the later screens' sections (text-parts.ts) load after them.
 */
const resources: LocaleResources = {
  translation: texts,
  errors: { ...errors, ...texts.httpErrors },
  validation,
};
export default resources;
