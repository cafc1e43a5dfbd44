import {
  HttpClient,
  HttpError,
  HttpResponse,
  HttpTransportType,
  HubConnectionBuilder,
  LogLevel,
  type HttpRequest,
  type HubConnection,
  type IHttpConnectionOptions,
} from '@microsoft/signalr';
import type { ClientRequestArgs, IncomingMessage } from 'node:http';
import { WebSocket, type ClientOptions } from 'ws';
import {
  PAYMENT_HUB_PATH,
  paymentUpdated,
  type PaymentUpdated,
} from '@alda/contract/schemas/orders';

/*
 * The load generator's instruments (issue 44 §4): every HTTP request a virtual customer makes
 * goes through a Recorder, which notes its phase, start and end, its status or network error,
 * and which instance answered (`X-Alda-Server`, set by HAProxy). Hub clients are the official
 * SignalR client; their negotiate and WebSocket upgrade are recorded the same way (an HttpClient
 * and a WebSocket class of our own), and each watch of a payment notes every reconnect.
 */

/** The header in which HAProxy names the instance that answered (deploy/haproxy/alda.cfg). */
export const SERVER_HEADER = 'x-alda-server';

/** Wall-clock milliseconds with sub-ms resolution (comparable with the kill moment). */
export const clock = () => performance.timeOrigin + performance.now();

export interface RequestRecord {
  id: number;
  /** The phase of the run when the request started. */
  phase: string;
  /** What the customer was doing: sign-in, home, poll, purchase, pay, hub. */
  step: string;
  /** Method and route template, e.g. `GET /api/subscriptions` (no ids: the table groups by it). */
  route: string;
  start: number;
  /** When the answer (or the error) came; NaN while in flight. */
  end: number;
  status?: number;
  /** A network error (connection reset by the balancer, timeout): no answer at all. */
  error?: string;
  /** The instance that answered, from X-Alda-Server. */
  server?: string;
  /** Not the answer expected (a network error, a 5xx, or any status the step does not expect). */
  failed: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body's `data` (empty for none). */
  data: Record<string, unknown>;
  error: { code?: string } | undefined;
}

/** Thrown for an answer the step did not expect (recorded as a failure first). */
export class UnexpectedAnswer extends Error {
  constructor(
    readonly record: RequestRecord,
    readonly answer?: Answer,
  ) {
    super(
      `${record.route}: ${record.error ?? `HTTP ${record.status}`}${answer?.error?.code ? ` ${answer.error.code}` : ''}`,
    );
  }
}

export class Recorder {
  phase = 'setup';
  readonly records: RequestRecord[] = [];
  private readonly open = new Map<number, RequestRecord>();
  private nextId = 1;

  begin(step: string, route: string): RequestRecord {
    const record: RequestRecord = {
      id: this.nextId++,
      phase: this.phase,
      step,
      route,
      start: clock(),
      end: Number.NaN,
      failed: false,
    };
    this.open.set(record.id, record);
    return record;
  }

  finish(
    record: RequestRecord,
    outcome: { status?: number; error?: string; server?: string | undefined; ok: boolean },
  ): RequestRecord {
    record.end = clock();
    if (outcome.status !== undefined) record.status = outcome.status;
    if (outcome.error !== undefined) record.error = outcome.error;
    if (outcome.server) record.server = outcome.server;
    record.failed = !outcome.ok;
    this.open.delete(record.id);
    this.records.push(record);
    return record;
  }

  /** Requests in flight now. */
  inFlight(): RequestRecord[] {
    return [...this.open.values()];
  }
}

const errorText = (error: unknown): string => {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = (cause as { code?: string } | undefined)?.code;
    return code ? `${error.name}: ${code}` : `${error.name}: ${error.message}`;
  }
  return String(error);
};

export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  /** Idempotency-Key. */
  key?: string;
  /** The customer's address, which HAProxy forwards in X-Forwarded-For (TRUST_PROXY). */
  ip?: string;
  /** If-None-Match. */
  etag?: string | undefined;
  /** Statuses that are a success for this step; anything else is a failure. */
  expect?: readonly number[];
  /** Overrides the route shown in the table (for URLs with ids). */
  route?: string;
  timeoutMs?: number;
}

/**
 * JSON over HTTP as the app sends it, recorded. Answers for an expected status; throws
 * UnexpectedAnswer (after recording the failure) for a network error or an unexpected status.
 */
export async function call(
  recorder: Recorder,
  step: string,
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const route = options.route ?? `${method} ${path.replace(/\?.*$/, '')}`;
  const record = recorder.begin(step, route);
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: {
        'accept-language': 'en',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.key ? { 'idempotency-key': options.key } : {}),
        ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
        ...(options.etag ? { 'if-none-match': options.etag } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    text = await res.text();
  } catch (error) {
    throw new UnexpectedAnswer(recorder.finish(record, { error: errorText(error), ok: false }));
  }
  const server = res.headers.get(SERVER_HEADER) ?? undefined;
  let json: { data?: Record<string, unknown>; error?: Answer['error'] } = {};
  try {
    json = text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {};
  } catch {
    // Not JSON (a balancer's error page): the status tells.
  }
  const answer: Answer = {
    status: res.status,
    headers: res.headers,
    data: json.data ?? {},
    error: json.error,
  };
  const ok = (options.expect ?? [200]).includes(res.status);
  recorder.finish(record, { status: res.status, server, ok });
  if (!ok) throw new UnexpectedAnswer(record, answer);
  return answer;
}

/**
 * The test provider's card page, paid with the success card as a browser posts the form (as
 * support/http-json.ts does); recorded like `call`. The customer's browser is a client of the
 * balancer too (the page is on APP_URL).
 */
export async function submitCardForm(
  recorder: Recorder,
  paymentUrl: string,
  ip: string,
): Promise<RequestRecord> {
  const url = paymentUrl.replace(/\?.*$/, '');
  const record = recorder.begin('pay', 'POST /test-provider/checkout/:id');
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': ip,
      },
      body: new URLSearchParams({
        number: '4242424242424242',
        expiry: '12/30',
        cvc: '123',
        action: 'pay',
      }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    const ok = res.status === 303;
    recorder.finish(record, {
      status: res.status,
      server: res.headers.get(SERVER_HEADER) ?? undefined,
      ok,
    });
    if (!ok) throw new UnexpectedAnswer(record);
    return record;
  } catch (error) {
    if (error instanceof UnexpectedAnswer) throw error;
    throw new UnexpectedAnswer(recorder.finish(record, { error: errorText(error), ok: false }));
  }
}

// ---------------------------------------------------------------------------------------------
// Hub clients.

/**
 * The official client's HTTP requests (negotiate) over fetch, recorded, with the customer's
 * X-Forwarded-For. Behaves as the client's own FetchHttpClient: a non-2xx answer is an HttpError.
 */
class RecordingHttpClient extends HttpClient {
  constructor(
    private readonly recorder: Recorder,
    private readonly ip: string,
  ) {
    super();
  }

  override async send(request: HttpRequest): Promise<HttpResponse> {
    const controller = new AbortController();
    if (request.abortSignal) request.abortSignal.onabort = () => controller.abort();
    const path = new URL(request.url ?? '').pathname;
    const record = this.recorder.begin('hub', `${request.method ?? 'GET'} ${path}`);
    let res: Response;
    let content: string;
    try {
      res = await fetch(request.url ?? '', {
        method: request.method ?? 'GET',
        headers: { ...request.headers, 'x-forwarded-for': this.ip },
        body: request.content,
        signal: AbortSignal.any([
          controller.signal,
          AbortSignal.timeout(request.timeout ?? 100_000),
        ]),
      });
      content = await res.text();
    } catch (error) {
      this.recorder.finish(record, { error: errorText(error), ok: false });
      throw error;
    }
    const ok = res.status >= 200 && res.status < 300;
    this.recorder.finish(record, {
      status: res.status,
      server: res.headers.get(SERVER_HEADER) ?? undefined,
      ok,
    });
    if (!ok) throw new HttpError(res.statusText, res.status);
    return new HttpResponse(res.status, res.statusText, content);
  }
}

/**
 * `ws`'s WebSocket, noting the upgrade as a request and which instance took it (the 101 answer
 * carries X-Alda-Server). The official client builds it for every (re)connect.
 */
function recordingWebSocket(recorder: Recorder, onServer: (server: string | undefined) => void) {
  return class RecordedWebSocket extends WebSocket {
    constructor(
      address: string,
      protocols?: string | string[],
      options?: ClientOptions | ClientRequestArgs,
    ) {
      // A WebSocket that gets no answer to its upgrade gives up as a browser's would.
      super(address, protocols, { handshakeTimeout: 30_000, ...options });
      const record = recorder.begin('hub', `GET ${PAYMENT_HUB_PATH} (WebSocket)`);
      let done = false;
      const finish = (outcome: Parameters<Recorder['finish']>[1]) => {
        if (done) return;
        done = true;
        recorder.finish(record, outcome);
      };
      this.once('upgrade', (res: IncomingMessage) => {
        const server = res.headers[SERVER_HEADER];
        const name = Array.isArray(server) ? server[0] : server;
        onServer(name);
        finish({ status: 101, server: name, ok: true });
      });
      // Not an 'unexpected-response' listener: with one, `ws` no longer fails the socket on a
      // refused upgrade, and the official client would wait for it for ever. The error names
      // the status.
      this.once('error', (error) => {
        const status = /Unexpected server response: (\d+)/.exec(error.message)?.[1];
        finish(
          status === undefined
            ? { error: errorText(error), ok: false }
            : { status: Number(status), ok: false },
        );
      });
      this.once('close', () => finish({ error: 'closed before the upgrade', ok: false }));
    }
  };
}

export interface HubEvent {
  at: number;
  kind: 'connected' | 'reconnecting' | 'reconnected' | 'closed';
  /** The instance of the connection (for `reconnecting`: the one that was lost). */
  server?: string | undefined;
}

/**
 * One customer's wait for one payment on the payment hub, as the app's payment screen does it
 * (apps/web/src/shared/payments): connect, ListenToOrder, wait for the PaymentUpdated that
 * settles it; after an automatic reconnect, ListenToOrder again (the server forgot the old
 * connection's orders, and answers a settled order's state to a new listener).
 */
export class PaymentWatch {
  readonly events: HubEvent[] = [];
  readonly updates: PaymentUpdated[] = [];
  /** The instance the WebSocket is on now (X-Alda-Server of the last upgrade). */
  server: string | undefined;
  settled: PaymentUpdated | undefined;
  settledAt: number | undefined;
  /** A ListenToOrder or start that failed (the reason), if any. */
  problems: string[] = [];
  private readonly connection: HubConnection;
  private resolveSettled!: (update: PaymentUpdated) => void;
  readonly settledPromise: Promise<PaymentUpdated>;

  constructor(
    recorder: Recorder,
    base: string,
    private readonly orderId: string,
    accessToken: () => string,
    ip: string,
    reconnectDelaysMs: readonly number[],
  ) {
    this.settledPromise = new Promise((resolve) => (this.resolveSettled = resolve));
    const options: IHttpConnectionOptions & { WebSocket: unknown } = {
      accessTokenFactory: accessToken,
      transport: HttpTransportType.WebSockets,
      httpClient: new RecordingHttpClient(recorder, ip),
      headers: { 'x-forwarded-for': ip },
      // The client's own option (not in its typings): the WebSocket class it builds in Node.
      WebSocket: recordingWebSocket(recorder, (server) => (this.server = server)),
    };
    this.connection = new HubConnectionBuilder()
      .withUrl(`${base}${PAYMENT_HUB_PATH}`, options)
      .withAutomaticReconnect([...reconnectDelaysMs])
      .configureLogging(LogLevel.None)
      .build();
    this.connection.on('PaymentUpdated', (payload: unknown) => {
      const parsed = paymentUpdated.safeParse(payload);
      if (!parsed.success) {
        this.problems.push('unexpected PaymentUpdated');
        return;
      }
      if (parsed.data.orderId !== this.orderId) return;
      this.updates.push(parsed.data);
      if (parsed.data.status !== 'pending' && !this.settled) {
        this.settled = parsed.data;
        this.settledAt = clock();
        this.resolveSettled(parsed.data);
      }
    });
    this.connection.onreconnecting(() => {
      this.events.push({ at: clock(), kind: 'reconnecting', server: this.server });
      this.server = undefined;
    });
    this.connection.onreconnected(() => {
      this.events.push({ at: clock(), kind: 'reconnected', server: this.server });
      void this.listen();
    });
    this.connection.onclose(() => this.events.push({ at: clock(), kind: 'closed' }));
  }

  /** Connects and listens to the order; false when either failed (the problem is noted). */
  async start(): Promise<boolean> {
    try {
      await this.connection.start();
    } catch (error) {
      this.problems.push(`start: ${errorText(error)}`);
      return false;
    }
    this.events.push({ at: clock(), kind: 'connected', server: this.server });
    return this.listen();
  }

  private async listen(): Promise<boolean> {
    try {
      await this.connection.invoke('ListenToOrder', this.orderId);
      return true;
    } catch (error) {
      this.problems.push(`ListenToOrder: ${errorText(error)}`);
      return false;
    }
  }

  /** Whether the connection was lost at some point (and on which instance). */
  lostOn(): (string | undefined)[] {
    return this.events.filter((e) => e.kind === 'reconnecting').map((e) => e.server);
  }

  get state(): string {
    return this.connection.state;
  }

  async stop(): Promise<void> {
    await this.connection.stop().catch(() => {});
  }
}
