import { pushReturnPath } from '@/shared/push/opened-by-push';

/*
 * Where the path to open after the next sign-in is kept (return-path.ts): this tab's
 * sessionStorage. A module of its own, without the check of the path (safeAppPath, done where
 * the path is read), so that the start-up can keep a tapped notification's screen before any
 * screen shows and the first screens carry only these lines.
 */

export const RETURN_PATH_KEY = 'alda.returnPath';

/** This tab's sessionStorage, or null where storage is disabled (sign-in then goes home). */
export function returnPathStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Private mode, sandboxed frames.
    return null;
  }
}

/** Keeps `path` as it is; the sign-in screens check it as they read it (takeReturnPath). */
export function keepReturnPath(path: string): void {
  try {
    returnPathStorage()?.setItem(RETURN_PATH_KEY, path);
  } catch {
    // Full or refused storage: sign-in goes home, as before.
  }
}

/**
 * For the start-up (main.tsx), when it finds a guest: the app opened at a tapped notification's
 * address (`?tapped=1`, added by the service worker) keeps that screen for after the sign-in.
 * Called before the guest is sent to login and before any screen shows, so a sign-in however
 * quick finds it (issue 64). An address opened any other way is not kept.
 */
export function rememberTappedStart(pathname: string, search: string): void {
  const asked = pushReturnPath(pathname, search);
  if (asked) keepReturnPath(asked);
}
