import { lazyValue } from '@/shared/api/lazy-value';

/**
 * The signed-in parts of the frame (`signed-in-shell.tsx`). main.tsx loads them with the query
 * cache, which a signed-in session always has, so the root layout can draw them at once.
 */
export const signedInShell = lazyValue(() => import('./signed-in-shell'));
