/*
 * The mark of an address opened from a tapped notification (issue 64, ADR 0096): the service
 * worker adds it to a link it opens in a new window (no window of the app was open), and the
 * app's start-up reads it. A guest so started signs in and lands on the notification's screen.
 * Only then: a guest who lands on a signed-in address some other way (a bookmark, a payment's
 * return) goes home after signing in, as before.
 *
 * A module of its own: the start-up (shared/auth/return-path-storage.ts) needs only
 * {@link pushReturnPath}, and the first screens then carry nothing of push-link.ts.
 */

/** The query parameter of the mark. */
export const OPENED_BY_PUSH = 'tapped';

/** `link` with {@link OPENED_BY_PUSH} added, as the service worker opens it. */
export function openedByPush(link: string): string {
  return `${link}${link.includes('?') ? '&' : '?'}${OPENED_BY_PUSH}=1`;
}

/**
 * The path to return to after the sign-in for an address opened from a tapped notification
 * (`pathname` and `search` of the page's location), without {@link OPENED_BY_PUSH}; null for an
 * address opened any other way.
 */
export function pushReturnPath(pathname: string, search: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.has(OPENED_BY_PUSH)) return null;
  params.delete(OPENED_BY_PUSH);
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}`;
}
