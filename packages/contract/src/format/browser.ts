/**
 * The browser a user agent names, most specific first (Edge and Opera also say "Chrome", Chrome
 * also says "Safari"); null when none of these. One rule for the names passkeys get by default
 * (ADR 0097): the app's for a customer's, the API's for a staff member's.
 */
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg\/|EdgA\/|EdgiOS\//, 'Edge'],
  [/OPR\/|OPiOS\//, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|Chromium\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

export function browserOf(userAgent: string): string | null {
  return BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}
