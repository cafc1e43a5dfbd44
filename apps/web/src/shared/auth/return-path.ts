import { ROUTES } from '@/shared/config/paths';
import { safeAppPath } from '@/shared/config/safe-app-path';
import { keepReturnPath, RETURN_PATH_KEY, returnPathStorage } from './return-path-storage';

/*
 * Where a guest was going when the guards sent them to login (issue 64): a tapped notification,
 * a link opened from outside. The guards only say "login" (guards.ts); the screen the customer
 * asked for is kept here, in this tab's sessionStorage (it survives a reload of the login screen,
 * and no other tab or later visit sees it: return-path-storage.ts), and the sign-in screens go
 * there instead of home.
 */

/**
 * Remembers `path` (with its query) to open after the next sign-in. Only a route of the app
 * ({@link safeAppPath}); home and the sign-in screens themselves are not worth remembering.
 */
export function rememberReturnPath(path: string): void {
  const safe = safeAppPath(path);
  if (!safe || safe === ROUTES.home || safe.startsWith(ROUTES.login)) return;
  keepReturnPath(safe);
}

/** The remembered path, once: it is forgotten as it is read. Null when there is none. */
export function takeReturnPath(): string | null {
  const store = returnPathStorage();
  const path = store?.getItem(RETURN_PATH_KEY) ?? null;
  if (path === null) return null;
  store?.removeItem(RETURN_PATH_KEY);
  // sessionStorage is not ours alone: only an app route is followed.
  return safeAppPath(path);
}
