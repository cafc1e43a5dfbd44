// Typed keys (i18next's TypeScript resources, ADR 0073): `t('home.title')` is checked against the
// Faroese texts, the source of truth for the keys (locales.test.ts keeps English in step), so a
// missing or misspelt key is a type error.
import 'i18next';
import type errors from '@alda/contract/locales/errors.fo.json';
import type validation from '@alda/contract/locales/validation.fo.json';
import type { Messages } from './locale-resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    nsSeparator: false;
    resources: {
      translation: Messages;
      errors: typeof errors & Messages['httpErrors'];
      validation: typeof validation;
    };
  }
}
