/**
 * The query parameter the service worker adds to a link it opens in a new window (no window of
 * the app was open): the app's start then knows the customer came from a tapped notification, and
 * a guest signs in and lands on its screen. Only then: a guest who lands on a signed-in address
 * some other way (a bookmark, a payment's return) goes home after signing in, as before.
 *
 * A module of its own: the start-up (shared/auth/return-path-storage.ts) needs only this name,
 * and the first screens then carry nothing else of push-link.ts.
 */
export const OPENED_BY_PUSH = 'tapped';
