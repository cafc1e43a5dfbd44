// Typed keys (as apps/web, ADR 0073): `t('signIn.title')` is checked against the Faroese texts,
// the source of truth for the keys (locales.test.ts keeps English in step), so a missing or
// misspelt key is a type error. One line per namespace; an area's texts are
// `src/locales/{fo,en}/<area>.json` (README "Adding an area").
import 'i18next';
import type errors from '@alda/contract/locales/errors.fo.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    /* eslint-disable @typescript-eslint/consistent-type-imports -- one line per namespace */
    resources: {
      errors: typeof errors;
      common: typeof import('../locales/fo/common.json');
      // The signed-in member's own pages (not an area): their passkeys.
      account: typeof import('../locales/fo/account.json');
      // Areas, one line each:
      status: typeof import('../locales/fo/status.json');
      content: typeof import('../locales/fo/content.json');
      customers: typeof import('../locales/fo/customers.json');
      numbers: typeof import('../locales/fo/numbers.json');
      audit: typeof import('../locales/fo/audit.json');
      staff: typeof import('../locales/fo/staff.json');
      partners: typeof import('../locales/fo/partners.json');
      payments: typeof import('../locales/fo/payments.json');
      orders: typeof import('../locales/fo/orders.json');
      support: typeof import('../locales/fo/support.json');
    };
    /* eslint-enable @typescript-eslint/consistent-type-imports */
  }
}
