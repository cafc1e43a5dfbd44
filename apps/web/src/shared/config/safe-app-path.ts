import { ROUTES } from './paths';

/**
 * `path` when it is one of the app's own routes (a path of `ROUTES`, with an optional query),
 * else null: never another origin, a protocol-relative `//host` or a path we do not have. For
 * paths the app did not write itself: a payment's return (sessionStorage is not ours alone), a
 * tapped notification, the screen a guest was going to before login. A module of its own, so
 * the sign-in screens that use it do not bring the payment memo into home's shared chunk.
 */
export function safeAppPath(path: unknown): string | null {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return null;
  if (/[\\\s]/.test(path)) return null;
  let url: URL;
  try {
    url = new URL(path, 'http://app.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://app.invalid' || url.hash) return null;
  const known = Object.values(ROUTES).some((pattern) =>
    new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(url.pathname),
  );
  return known ? `${url.pathname}${url.search}` : null;
}
