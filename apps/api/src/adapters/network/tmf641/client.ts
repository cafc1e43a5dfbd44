import { serviceOrderIn, type ServiceOrderCreate, type ServiceOrderIn } from './wire';

/*
 * The HTTP side of TMF641 (docs/decisions/0082-network-tmf641.md): `Authorization: Bearer
 * TMF641_TOKEN` on every call (when set), JSON both ways, a 10 s timeout, and errors that name the method,
 * path and status (never the token). The paths are the document's, under TMF641_URL (which
 * ends in `/tmf-api/serviceOrdering/v4`).
 */

export interface Tmf641ClientOptions {
  /** TMF641_URL: the API's base address, e.g. https://oss.example.fo/tmf-api/serviceOrdering/v4. */
  url: string;
  /** TMF641_TOKEN; unset, no `Authorization` header is sent. */
  token?: string | undefined;
  /** Replaced in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Milliseconds before a call is given up (default 10 s). */
  timeoutMs?: number;
}

/** A call that did not get a usable answer. `lost` says the OSS may have acted on it anyway. */
export class Tmf641HttpError extends Error {
  override name = 'Tmf641HttpError';
  constructor(
    readonly method: string,
    readonly path: string,
    /** The status, or null when no answer came (timeout, connection refused). */
    readonly status: number | null,
    detail: string,
    /**
     * The request may have reached the OSS and been carried out (no answer, or a 5xx): a POST
     * that ends like this is looked up by its `externalId` before it is sent again.
     */
    readonly lost: boolean,
    options?: { cause?: unknown },
  ) {
    super(`TMF641 ${method} ${path} ${detail}`, options);
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;

export type Tmf641Client = ReturnType<typeof createTmf641Client>;

export function createTmf641Client(options: Tmf641ClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = options.url.replace(/\/+$/, '');

  async function call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new Tmf641HttpError(method, path, null, timedOut ? 'timed out' : 'failed', true, {
        cause: error,
      });
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      // The OSS's `Error` body (code, reason, message) says why; short, and never our token.
      let why = '';
      try {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        why = [parsed.code, parsed.reason, parsed.message]
          .filter((w) => typeof w === 'string' && w !== '')
          .join(': ')
          .slice(0, 300);
      } catch {
        // Not JSON: the status says enough.
      }
      throw new Tmf641HttpError(
        method,
        path,
        response.status,
        `answered ${response.status}${why ? ` (${why})` : ''}`,
        response.status >= 500,
      );
    }
    try {
      return text === '' ? null : (JSON.parse(text) as unknown);
    } catch (error) {
      throw new Tmf641HttpError(method, path, response.status, 'answered with no JSON', false, {
        cause: error,
      });
    }
  }

  function serviceOrderOf(method: string, path: string, body: unknown): ServiceOrderIn {
    const parsed = serviceOrderIn.safeParse(body);
    if (!parsed.success)
      throw new Tmf641HttpError(
        method,
        path,
        200,
        `answered with no ServiceOrder (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`,
        false,
      );
    return parsed.data;
  }

  return {
    /** POST /serviceOrder: places the order; answers the OSS's ServiceOrder (201). */
    async createServiceOrder(body: ServiceOrderCreate): Promise<ServiceOrderIn> {
      return serviceOrderOf('POST', '/serviceOrder', await call('POST', '/serviceOrder', body));
    },

    /** GET /serviceOrder/{id}: the order as the OSS has it now (the polling fallback). */
    async getServiceOrder(id: string): Promise<ServiceOrderIn> {
      const path = `/serviceOrder/${encodeURIComponent(id)}`;
      return serviceOrderOf('GET', path, await call('GET', path));
    },

    /**
     * GET /serviceOrder?externalId=: the order an earlier POST made when its answer was lost
     * (TMF630 attribute filtering); null when the OSS has none.
     */
    async findByExternalId(externalId: string): Promise<ServiceOrderIn | null> {
      const path = `/serviceOrder?externalId=${encodeURIComponent(externalId)}`;
      const body = await call('GET', path);
      const list = Array.isArray(body) ? body : [];
      for (const entry of list) {
        const parsed = serviceOrderIn.safeParse(entry);
        // An OSS that ignores the filter lists other orders too: only ours counts.
        if (parsed.success && parsed.data.externalId === externalId) return parsed.data;
      }
      return null;
    },

    /** DELETE /hub/{id}: removes a subscription; one the OSS no longer has (404) is gone too. */
    async unregisterListener(id: string): Promise<void> {
      try {
        await call('DELETE', `/hub/${encodeURIComponent(id)}`);
      } catch (error) {
        if (error instanceof Tmf641HttpError && error.status === 404) return;
        throw error;
      }
    },

    /** POST /hub: registers our listener (EventSubscriptionInput); answers the subscription id. */
    async registerListener(callback: string, query: string): Promise<{ id: string }> {
      const body = await call('POST', '/hub', { callback, query });
      const id = (body as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || id === '')
        throw new Tmf641HttpError('POST', '/hub', 201, 'answered with no subscription id', false);
      return { id };
    },
  };
}
