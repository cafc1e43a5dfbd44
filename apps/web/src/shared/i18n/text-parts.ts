/**
 * The sections of the app's texts (src/locales/<lang>.json, by top-level key) that only screens
 * after the first ones show (issue 13, ADR 0065): each language's texts come in two chunks,
 * `@/locales/<lang>.json?first` (in resources-<lang>.ts: the shell, login, home, purchase) and
 * `?later` (these sections; text-parts-plugin.ts makes both), fetched once the first screen is
 * up and awaited by every other screen's route (routes.tsx). text-parts.test.ts checks that
 * nothing the first screens can show is here.
 */
export const LATER_SECTIONS = [
  'unsaved',
  'welcome',
  'menu',
  'appearance',
  'content',
  'profile',
  'forms',
  'sim',
  'phoneBook',
  'family',
  'manage',
  'manageFamily',
  'activity',
  'receipts',
  'bills',
  'paymentAgreement',
  'paymentVia',
  'billing',
  'euPackage',
  'signup',
  'lifecycle',
  'addMember',
  'transfers',
  'usageHistory',
  'protection',
  'roamingCap',
  'support',
  'push',
] as const;

export type LaterSection = (typeof LATER_SECTIONS)[number];

/**
 * The API error codes (the contract's errors.<lang>.json) whose text the first screens show
 * before the later texts arrive: a session that ended, told on the login screen even at start-up
 * (session-reset.ts). Every other code's text comes with the later texts (issue 33: the login
 * screen's budget); until then a screen shows the API's own message, the same text, since the
 * API answers in the app's language. text-parts.test.ts checks the first screens name no other.
 */
export const FIRST_ERROR_CODES = ['UNAUTHORIZED'] as const;
