/**
 * A fake `fetch` for tests: answers by "METHOD /path" (the path after the API base, without the
 * query) and records every request with its headers and body.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export const json = (status: number, body: unknown): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

export const ok = (data: unknown) => json(200, { data });
export const fail = (status: number, code: string, message = code) =>
  json(status, { error: { code, message } });

/** The signed-in app's background polls (data requests, notifications) with nothing new. */
export const quietPolls: Record<string, Handler> = {
  'GET /data-transfers': () => ok([]),
  'GET /notifications': () => ok({ totalUnread: 0, items: [], page: 0, perPage: 15, total: 0 }),
};

export function createFakeApi(handlers: Record<string, Handler> = {}, base = '/api') {
  const requests: RecordedRequest[] = [];
  const routes = { ...handlers };
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.slice(url.indexOf(base) + base.length).split('?')[0] ?? '';
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const request = { method, path, url, headers, body };
    requests.push(request);
    const handler = routes[`${method} ${path}`];
    if (!handler) return fail(404, 'ROUTE_NOT_FOUND', `No fake for ${method} ${path}`);
    return handler(request);
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    requests,
    /** Adds or replaces a handler. */
    on(route: string, handler: Handler) {
      routes[route] = handler;
    },
    callsTo(route: string) {
      return requests.filter((r) => `${r.method} ${r.path}` === route);
    },
  };
}

/** A promise with its resolve/reject exposed, to control when a fake answers. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
