import type { FirstScreens } from './preload-first-screen';

/** What every signed-in start needs beside its screen: the query cache, the signed-in frame and
 * the start-up schemas (with zod) of GET /auth/me and the six account resources. */
const SIGNED_IN_START = [
  'src/shared/api/query-runtime.ts',
  'src/app/signed-in-shell.tsx',
  'src/shared/api/account-schemas.ts',
  '../../packages/contract/src/schemas/auth.ts',
];

/**
 * The lazy chunks index.html preloads beside the entry (issue 13; per start, issue 45): the texts
 * of the default language (Faroese) for every start; the login screen for a guest; for a
 * signed-in start on home or the purchase screen (the paths of `ROUTES.home` and
 * `ROUTES.buyPackage`, first-screens.test.ts), that screen and what every signed-in start needs.
 * A signed-in start elsewhere gets its screen from main.tsx once the entry runs.
 */
export const FIRST_SCREENS: FirstScreens = {
  always: ['src/shared/i18n/resources-fo.ts'],
  guest: ['src/features/auth/login-chooser-screen.tsx'],
  signedIn: {
    '/': ['src/features/home/home-screen.tsx', ...SIGNED_IN_START],
    '/keyp-pakka': ['src/features/packages/packages-screen.tsx', ...SIGNED_IN_START],
  },
};
