import {
  STAFF_SESSION_IDLE_S,
  staffSession,
  type StaffMe,
  type StaffSession,
} from '@alda/contract/schemas/staff';

/**
 * The staff session of this tab (docs/decisions/0075-staff-console.md): the opaque bearer token of
 * `/api/staff/*`, its idle and absolute expiry, and who signed in. Kept in `sessionStorage` (this
 * tab only, gone when the tab closes), never in `localStorage`.
 */
export const SESSION_KEY = 'alda-console-session';

/** Why the last session ended, for the sign-in screen to say. */
export type SignOutNotice = 'expired' | 'signed-out' | 'signed-out-everywhere';

export interface SessionStore {
  /** The live session, or null when signed out. The same object until something changes. */
  get(): StaffSession | null;
  /** The bearer token of the live session. */
  token(): string | null;
  /** Why the last session ended (until the next sign-in). */
  notice(): SignOutNotice | null;
  /** After sign-in. */
  start(session: StaffSession): void;
  /** The server's answer of `GET /api/staff/auth/me`: who, and the session's exact limits. */
  refresh(me: StaffMe): void;
  /**
   * After any successful staff call: the server restarted the idle clock, so the idle expiry moves
   * to now + 15 min (never past the absolute expiry). The next `/me` answer corrects it.
   */
  touch(now?: number): void;
  /** Ends the session in this tab; `notice` says why on the sign-in screen. */
  end(notice: SignOutNotice): void;
  subscribe(listener: () => void): () => void;
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

function restore(storage: Storage): StaffSession | null {
  try {
    const saved = storage.getItem(SESSION_KEY);
    if (!saved) return null;
    const parsed = staffSession.safeParse(JSON.parse(saved));
    if (!parsed.success) return null;
    // An absolutely expired session is not worth a call.
    return Date.parse(parsed.data.expiresAt) > Date.now() ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createSessionStore(storage: Storage): SessionStore {
  let session = restore(storage);
  let notice: SignOutNotice | null = null;
  const listeners = new Set<() => void>();

  const set = (next: StaffSession | null) => {
    session = next;
    try {
      if (next) storage.setItem(SESSION_KEY, JSON.stringify(next));
      else storage.removeItem(SESSION_KEY);
    } catch {
      // Storage full or blocked: the session still lives in memory for this page.
    }
    for (const listener of [...listeners]) listener();
  };

  return {
    get: () => session,
    token: () => session?.token ?? null,
    notice: () => notice,
    start(next) {
      notice = null;
      set(next);
    },
    refresh(me) {
      if (!session) return;
      set({
        ...session,
        staff: me.staff,
        idleExpiresAt: me.idleExpiresAt,
        expiresAt: me.expiresAt,
      });
    },
    touch(now = Date.now()) {
      if (!session) return;
      const idle = Math.min(now + STAFF_SESSION_IDLE_S * 1000, Date.parse(session.expiresAt));
      if (idle <= Date.parse(session.idleExpiresAt)) return;
      set({ ...session, idleExpiresAt: new Date(idle).toISOString() });
    },
    end(why) {
      if (!session) return;
      notice = why;
      set(null);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A storage that forgets, where `sessionStorage` is missing or refused (a locked-down browser). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** `sessionStorage` of this tab, or a storage that forgets when the browser refuses it. */
export function tabStorage(): Storage {
  try {
    const storage = window.sessionStorage;
    storage.getItem(SESSION_KEY);
    return storage;
  } catch {
    return memoryStorage();
  }
}
