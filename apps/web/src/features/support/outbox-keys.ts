/**
 * Where the support outbox keeps a user's unsent messages on the device (issue 46), apart from
 * outbox.ts so that signing out can forget them without loading the support screens.
 */
export const SUPPORT_OUTBOX_PREFIX = 'alda.support.outbox.';

/**
 * Forgets every user's unsent support messages on this device (SPEC §4 "Session": nothing of
 * a user is left after logout; the next person on the device never sees them).
 */
export function forgetSupportOutboxes(): void {
  try {
    const store = typeof window === 'undefined' ? null : window.localStorage;
    if (!store) return;
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter(
      (key): key is string => key !== null && key.startsWith(SUPPORT_OUTBOX_PREFIX),
    );
    for (const key of keys) store.removeItem(key);
  } catch {
    // Refused storage holds no messages.
  }
}

/** Whether this user has support messages waiting on this device (read without the screens). */
export function hasKeptSupportMessages(userId: string): boolean {
  try {
    const raw =
      typeof window === 'undefined'
        ? null
        : window.localStorage.getItem(`${SUPPORT_OUTBOX_PREFIX}${userId}`);
    return raw !== null && raw !== '[]' && raw !== '{}';
  } catch {
    return false;
  }
}
