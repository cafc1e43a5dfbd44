import errors from '@alda/contract/locales/errors.en.json?first';
import validation from '@alda/contract/locales/validation.en.json';
import texts from '@/locales/en.json?first';
import type { LocaleResources } from './locale-resources';

/**
 * English: a chunk of its own, loaded when English is shown (i18n.ts `loadLocale`), with the
 * texts the first screens show; the later screens' sections (text-parts.ts) load after them.
 */
const resources: LocaleResources = {
  translation: texts,
  errors: { ...errors, ...texts.httpErrors },
  validation,
};
export default resources;
