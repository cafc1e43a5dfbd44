/**
 * Web push in the service worker (issue 64, ADR 0096): a push shows its notification, a tap opens
 * the screen it links to. Registered by `sw.ts`; the functions take what they use of the worker's
 * globals, so the tests give them fakes.
 *
 * - `push`: the payload is read as the contract's `PushPayload`; anything else (no payload, not
 *   JSON, a missing field, a link that is not a path of this app) shows nothing rather than
 *   throwing. The notification's tag is the notification's id, so a repeat replaces it.
 * - `notificationclick`: the notification closes; an open window of the app is focused and told to
 *   open the link with the app's router (no page load, the screen's state kept); with none open,
 *   a new window opens at the link (signed out, the app remembers it for after sign-in).
 */
import { pushPayload, type PushPayload } from '@alda/contract/schemas/push';
import { openedByPush } from '../shared/push/opened-by-push';
import { isAppPath, NAVIGATE_MESSAGE } from '../shared/push/push-link';

/** The app's icon (apps/web/public): the notification's picture and its small badge. */
const ICON = '/favicon.svg';

/** Paths of this origin that are not the customer app (the staff console, the API, dev pages). */
const NOT_THE_APP = /^\/(?:console|api|dev|test-provider)(?:\/|$)/;

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

/** What a `push` event carries (PushMessageData, read once). */
export interface PushEventLike extends ExtendableEvent {
  readonly data: { json(): unknown } | null;
}

/** What a `notificationclick` event carries. */
export interface NotificationClickLike extends ExtendableEvent {
  readonly notification: { readonly data: unknown; close(): void };
}

/** A window of this origin, as `clients.matchAll({ type: 'window' })` gives it. */
export interface WindowLike {
  readonly url: string;
  readonly focused: boolean;
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
}

/** What the handlers use of the worker's `clients`. */
export interface ClientsLike {
  matchAll(options: {
    type: 'window';
    includeUncontrolled: boolean;
  }): Promise<readonly WindowLike[]>;
  openWindow(url: string): Promise<unknown>;
}

/** What the handlers use of the worker's `registration`. */
export interface RegistrationLike {
  showNotification(title: string, options: NotificationOptions): Promise<void>;
}

/** What {@link listenForPushes} uses of the worker's global scope. */
export interface PushWorkerScope {
  readonly registration: RegistrationLike;
  readonly clients: ClientsLike;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: NotificationClickLike) => void,
  ): void;
}

/**
 * The payload of a push, or null when it is not one of ours: not JSON, not a `PushPayload` (its
 * `lang`, when there, `fo` or `en`), or a link that is not a path of this app.
 */
export function readPushPayload(data: PushEventLike['data']): PushPayload | null {
  let json: unknown;
  try {
    json = data?.json();
  } catch {
    return null;
  }
  const parsed = pushPayload.safeParse(json);
  return parsed.success && isAppPath(parsed.data.link) ? parsed.data : null;
}

/** Shows a push's notification; nothing for a payload that is not one of ours. */
export async function showPush(
  registration: RegistrationLike,
  data: PushEventLike['data'],
): Promise<void> {
  const push = readPushPayload(data);
  if (!push) return;
  const { id, kind, title, body, link, lang } = push;
  await registration.showNotification(title, {
    body,
    tag: id,
    data: { link, kind, id },
    icon: ICON,
    badge: ICON,
    ...(lang ? { lang } : {}),
  });
}

/** Whether a window shows the customer app (not the staff console on the same origin). */
function isAppWindow(url: string): boolean {
  try {
    return !NOT_THE_APP.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * Opens `link` for a tapped notification: in the app's focused window, else its first one (told
 * by a {@link NAVIGATE_MESSAGE} message, then focused), or a new window when none is open. A link
 * that is not a path of this app opens the app's start instead.
 */
export async function openPushLink(clients: ClientsLike, link: unknown): Promise<void> {
  const path = isAppPath(link) ? link : '/';
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })).filter(
    (client) => isAppWindow(client.url),
  );
  const target = windows.find((client) => client.focused) ?? windows[0];
  if (!target) {
    // Marked, so that a guest's start keeps the screen for after the sign-in.
    await clients.openWindow(openedByPush(path));
    return;
  }
  target.postMessage({ type: NAVIGATE_MESSAGE, link: path });
  try {
    await target.focus();
  } catch {
    // The browser may refuse to raise the window; the screen has changed in it all the same.
  }
}

/** The link a notification this worker showed carries, if any. */
function linkOf(notification: NotificationClickLike['notification']): unknown {
  const data = notification.data;
  return typeof data === 'object' && data !== null ? (data as { link?: unknown }).link : undefined;
}

/** Registers the `push` and `notificationclick` handlers on the worker's global scope. */
export function listenForPushes(scope: PushWorkerScope): void {
  scope.addEventListener('push', (event) => {
    event.waitUntil(showPush(scope.registration, event.data).catch(() => {}));
  });
  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    event.waitUntil(openPushLink(scope.clients, linkOf(event.notification)).catch(() => {}));
  });
}
