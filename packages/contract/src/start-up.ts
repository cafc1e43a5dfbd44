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
