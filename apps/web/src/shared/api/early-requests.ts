import { EARLY_REQUESTS_GLOBAL } from '@alda/contract/first-paint';

/**
 * The start-up GETs that index.html's inline script sent before the app's scripts had loaded
 * (issue 45, `FIRST_PAINT_SCRIPT`): the headers it sent them with, and each pending answer by URL.
 */
export interface EarlyRequests {
  headers: Record<string, string>;
  responses: Record<string, Promise<Response | null> | undefined>;
}

type Scope = { [EARLY_REQUESTS_GLOBAL]?: EarlyRequests };

const sameHeaders = (a: Record<string, string>, b: Record<string, string>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
};

/**
 * The answer of an early GET of `url`, if the inline script sent exactly this request: the same
 * URL and the same headers (token, language, no others). Each is taken once. A request sent
 * differently (another token after a refresh, another language, a query) is not matched, and
 * neither is an answer that is not a success (an expired token's 401 goes through the client's
 * refresh as usual): the caller then sends its own request. Null when there is nothing to take.
 */
export function takeEarlyResponse(
  url: string,
  headers: Record<string, string>,
  scope: Scope = globalThis as Scope,
): Promise<Response | null> | null {
  const early = scope[EARLY_REQUESTS_GLOBAL];
  const pending = early?.responses[url];
  if (!early || !pending) return null;
  early.responses[url] = undefined;
  if (!sameHeaders(early.headers, headers)) return null;
  return pending.then(
    (response) => (response?.ok ? response : null),
    () => null,
  );
}

/**
 * Forgets the early requests once start-up is over: an answer nobody took (the customer's chosen
 * line asked for another number) must not answer a later request with data from the page load.
 */
export function dropEarlyResponses(scope: Scope = globalThis as Scope): void {
  delete scope[EARLY_REQUESTS_GLOBAL];
}
