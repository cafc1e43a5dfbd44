/**
 * The GETs of a signed-in start (SPEC §1): step 3 the user, step 5 the six account resources,
 * relative to the API's `/api`. The app's start-up sends them (`apps/web/src/shared/api/
 * account-data.ts`, `current-user.ts`), and so does index.html's inline script before the app has
 * loaded (`first-paint.ts`, issue 45): one list for both.
 */
export const CURRENT_USER_PATH = '/auth/me';

export const ACCOUNT_RESOURCE_PATHS = {
  actions: '/actions',
  packages: '/packages',
  subscriptions: '/subscriptions',
  plans: '/plans',
  orders: '/orders',
  agreement: '/agreements',
} as const;

/**
 * The GETs a first screen asks for beside the start-up data, by the web path it opens on: the
 * purchase screen (`ROUTES.buyPackage`) reads the payment methods and the package requests as
 * soon as it shows. index.html's inline script sends them early too (`first-paint.ts`, issue 45).
 */
export const PAYMENT_METHODS_PATH = '/payments/methods';
export const PACKAGE_REQUESTS_PATH = '/package-requests';
export const FIRST_SCREEN_GETS: Readonly<Record<string, readonly string[]>> = {
  '/keyp-pakka': [PAYMENT_METHODS_PATH, PACKAGE_REQUESTS_PATH],
};
