/**
 * What the service worker and the page say to each other about a tapped notification (issue 64,
 * ADR 0096). Imported by both: the service worker's bundle (src/service-worker/push.ts) and the
 * page (shared/push/push-links.ts), so the two cannot drift apart. The mark of an address
 * opened from a tapped notification is opened-by-push.ts.
 */

/**
 * The `type` of the message the service worker posts to an open window of the app when one of
 * its notifications is tapped: `{ type: NAVIGATE_MESSAGE, link }`, the app then opens `link` with
 * its own router instead of a page load.
 */
export const NAVIGATE_MESSAGE = 'alda:navigate';

/**
 * True for a path of this app on its own origin: it starts with one `/` (never `//host`, which a
 * browser reads as another origin, nor a scheme), has no backslash (`/\host` is `//host` to a
 * browser) and no white space. A push's payload comes from our API, but a tap must never open
 * another site, whatever a payload says.
 */
export function isAppPath(link: unknown): link is string {
  return (
    typeof link === 'string' &&
    link.startsWith('/') &&
    !link.startsWith('//') &&
    !/[\\\s]/.test(link) &&
    link.length <= 2048
  );
}

/** The app path of a {@link NAVIGATE_MESSAGE} message, or null for any other message. */
export function navigateMessageLink(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, link } = data as { type?: unknown; link?: unknown };
  return type === NAVIGATE_MESSAGE && isAppPath(link) ? link : null;
}
