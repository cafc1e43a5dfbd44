import { spawn, type ChildProcess } from 'node:child_process';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/*
 * Vipps MobilePay as a provider in tests: Stoplight Prism (`prism mock`) serves the provider's
 * published OpenAPI documents (test/contracts/vipps-mobilepay, README.md there), one process per
 * document, behind one small HTTP server that routes by path prefix the way api.vipps.no does:
 *
 *   /epayment/…     → ePayment API v1 document            (paths start with /epayment/v1/…)
 *   /recurring/…    → Recurring API document (v2 and v3)  (paths start with /recurring/v3/…)
 *   /accesstoken/…  → Access token API document           (POST /accesstoken/get)
 *   /webhooks/…     → Webhooks API document; its server URL is https://api.vipps.no/webhooks and
 *                     its paths are /v1/webhooks…, so `/webhooks` is taken off before Prism
 *
 * Point the adapter's base URL at `url`. Every request is recorded in `requests`, and every way it
 * breaks the documents in `violations`: the `sl-violations` entries Prism adds for the request
 * (missing required header, wrong body type, failed pattern, …), the errors Prism answers with on
 * its own (401 UNAUTHORIZED for a missing `Authorization` where the document declares a security
 * scheme, 422 UNPROCESSABLE_ENTITY, 404 NO_PATH_MATCHED_ERROR, 405, 415, …) and any path outside
 * the four prefixes (404 from here). A contract test ends with `expect(prism.violations).toEqual([])`.
 *
 * Prism's own mistakes about the provider are kept apart in `responseViolations`: where a
 * document's example does not match its own schema (the Access token API's `expires_in` is typed
 * string with a numeric example, …), Prism lists it in `sl-violations` under `response`. That is
 * no fault of the request, so it is not in `violations`; see the README for the known ones.
 *
 * Answers are the documents' static examples (no `-d`): the same request gets the same answer.
 * A test can ask Prism for another documented answer with `prefer()` (Prism's `Prefer` header:
 * `code=404`, `example=QrImageUrl`, …) without the adapter knowing.
 */

export type VippsApi = 'epayment' | 'recurring' | 'accesstoken' | 'webhooks';

export interface Violation {
  /** The document the request was routed to; null when no prefix matched. */
  api: VippsApi | null;
  method: string;
  /** The path the adapter asked for (with its query string). */
  path: string;
  /** The status the adapter was answered with. */
  status: number;
  /**
   * `sl-violations`: an entry of Prism's `sl-violations` header. `prism-error`: an error Prism
   * produced itself (its `type` is https://stoplight.io/prism/errors#…). `harness`: no route here.
   */
  source: 'sl-violations' | 'prism-error' | 'harness';
  /** Where, as Prism says it: ['request', 'body', 'amount', 'value'], ['request', 'header'], …; [] if none. */
  location: string[];
  /** Prism's code ('required', 'type', 'pattern', 'enum', …), or the Prism error's name ('UNAUTHORIZED', 'NO_PATH_MATCHED_ERROR', …), or 'NO_ROUTE'. */
  code: string;
  severity: string;
  message: string;
}

export interface RecordedRequest {
  api: VippsApi | null;
  method: string;
  /** The path without the query string, as the adapter sent it (before any prefix is taken off). */
  path: string;
  query: Record<string, string>;
  /** The request's headers, names in lower case (node:http). */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; the raw text if it is not JSON; undefined if empty. */
  body: unknown;
  /** What the adapter was answered with. */
  status: number;
  /** The answer's body parsed as JSON (raw text if not JSON; undefined if empty). */
  responseBody: unknown;
}

export interface PreferRule {
  method?: string;
  /** Matches the adapter's path (without query): a prefix string or a regular expression. */
  path: string | RegExp;
  /** The value of Prism's `Prefer` header, e.g. 'code=404' or 'example=QrImageUrl'. */
  prefer: string;
}

export interface VippsPrism {
  /** Base URL (http://127.0.0.1:port, no trailing slash) to use instead of https://api.vipps.no. */
  url: string;
  /** Everything the requests did against the documents (see above); a passing contract test leaves it empty. */
  violations: Violation[];
  /** Where the documents' own answers break their own schemas (not the adapter's fault). */
  responseViolations: Violation[];
  /** Every request, in the order they arrived. */
  requests: RecordedRequest[];
  /** Sends `Prefer: <value>` to Prism for the requests that match, until `clearPrefer()`. */
  prefer(rule: PreferRule): void;
  clearPrefer(): void;
  /** Forgets the recorded requests and violations (the processes keep running). */
  reset(): void;
  /** Stops the router and every Prism process. */
  close(): Promise<void>;
}

export interface VippsPrismOptions {
  /**
   * Pass `--errors` to Prism. In mock mode that flag changes only what Prism does with its own
   * answers: one that breaks its document's schema becomes a 500 VIOLATIONS instead of being
   * sent (with the break listed in `sl-violations`). Invalid requests are answered with a 4xx
   * either way. Off by default, since some published examples break their own schemas (README).
   */
  errors?: boolean;
  /**
   * The documents to serve (default: all four). Each Prism takes about a second of CPU to start,
   * so a file that needs only ePayment and the token can say so; a request for an API not
   * started is answered 404 and recorded as a violation (code NOT_STARTED).
   */
  apis?: VippsApi[];
  /** How long to wait for every Prism to answer (default 60 s). */
  startTimeoutMs?: number;
  /** The router's port on 127.0.0.1 (default: one the kernel picks). */
  port?: number;
}

const contractsDir = fileURLToPath(new URL('../contracts/vipps-mobilepay/', import.meta.url));
const exitWithParent = fileURLToPath(new URL('./exit-with-parent.cjs', import.meta.url));
const prismBin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

/** The documents and the path prefix of each (see the README beside them). */
export const VIPPS_DOCUMENTS: Record<
  VippsApi,
  { file: string; prefix: string; stripPrefix: boolean }
> = {
  epayment: { file: 'epayment.v1.yml', prefix: '/epayment/', stripPrefix: false },
  recurring: { file: 'recurring.openapi.yaml', prefix: '/recurring/', stripPrefix: false },
  accesstoken: { file: 'access-token.swagger.yaml', prefix: '/accesstoken/', stripPrefix: false },
  webhooks: { file: 'webhooks.swagger.yaml', prefix: '/webhooks/', stripPrefix: true },
};

const PRISM_ERROR = 'https://stoplight.io/prism/errors#';

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Every Prism process started here and still running, killed when this process exits. */
const alive = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Synchronous on purpose: 'exit' handlers cannot wait. The children's stdin watchdog
  // (exit-with-parent.cjs) covers the deaths that run no handler at all.
  process.once('exit', () => {
    for (const child of alive) child.kill('SIGKILL');
  });
}

interface PrismProcess {
  api: VippsApi;
  port: number;
  child: ChildProcess;
  exited: Promise<void>;
  output(): string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

async function startPrism(api: VippsApi, errors: boolean, deadline: number): Promise<PrismProcess> {
  const document = contractsDir + VIPPS_DOCUMENTS[api].file;
  const args = ['--require', exitWithParent, prismBin, 'mock', document];
  args.push('--host', '127.0.0.1', '--port', '0', '--verboseLevel', 'info');
  if (errors) args.push('--errors');
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  alive.add(child);
  installExitHook();
  // The output is read all the time (Prism logs every request; a full pipe would stop it), and
  // only its last part is kept for error messages.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      alive.delete(child);
      resolve();
    }),
  );

  // `--port 0` lets the kernel pick a free port (no race with other test files for it); Prism
  // says which in "Prism is listening on http://127.0.0.1:PORT".
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Prism is listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(
        output.replace(ANSI, ''),
      );
      if (match?.[1]) {
        clearInterval(timer);
        resolve(Number(match[1]));
      } else if (gone || Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`prism mock ${VIPPS_DOCUMENTS[api].file} did not start:\n${output}`));
      }
    }, 20);
  });
  // Listening is not yet answering: ask until it does (any answer: a 404 for this path).
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${port}/__ready`, {
      signal: AbortSignal.timeout(2_000),
    }).then(
      async (res) => {
        await res.arrayBuffer();
        return true;
      },
      () => false,
    );
    if (answered) break;
    if (gone || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`prism mock ${VIPPS_DOCUMENTS[api].file} does not answer:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { api, port, child, exited, output: () => output };
}

function routeOf(path: string): VippsApi | null {
  for (const [api, doc] of Object.entries(VIPPS_DOCUMENTS) as [
    VippsApi,
    (typeof VIPPS_DOCUMENTS)[VippsApi],
  ][]) {
    if (path.startsWith(doc.prefix)) return api;
  }
  return null;
}

function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

interface PrismViolationEntry {
  location?: unknown;
  severity?: unknown;
  code?: unknown;
  message?: unknown;
}

function toStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** Starts the four Prism processes and the router; resolves once every Prism answers. */
export async function startVippsPrism(options: VippsPrismOptions = {}): Promise<VippsPrism> {
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  const apis = options.apis ?? (Object.keys(VIPPS_DOCUMENTS) as VippsApi[]);
  const started = await Promise.allSettled(
    apis.map((api) => startPrism(api, options.errors ?? false, deadline)),
  );
  const prisms = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    for (const prism of prisms) prism.child.kill('SIGKILL');
    await Promise.all(prisms.map((prism) => prism.exited));
    throw failed.reason;
  }
  const portOf = new Map(prisms.map((prism) => [prism.api, prism.port]));

  const violations: Violation[] = [];
  const responseViolations: Violation[] = [];
  const requests: RecordedRequest[] = [];
  let preferRules: PreferRule[] = [];

  const preferFor = (method: string, path: string): string | undefined => {
    for (let i = preferRules.length - 1; i >= 0; i -= 1) {
      const rule = preferRules[i];
      if (!rule) continue;
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      const matches =
        typeof rule.path === 'string' ? path.startsWith(rule.path) : rule.path.test(path);
      if (matches) return rule.prefer;
    }
    return undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pathWithQuery = target.pathname + target.search;
    const raw = await readAll(req);
    const api = routeOf(target.pathname);
    const record: RecordedRequest = {
      api,
      method,
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers: req.headers,
      body: parseBody(raw),
      status: 0,
      responseBody: undefined,
    };
    requests.push(record);
    const base = { api, method, path: pathWithQuery };

    if (api === null) {
      const problem = {
        type: 'about:blank',
        title: 'No Vipps MobilePay document for this path',
        status: 404,
        detail: `${method} ${pathWithQuery}: no /epayment/, /recurring/, /accesstoken/ or /webhooks/ prefix`,
      };
      violations.push({
        ...base,
        status: 404,
        source: 'harness',
        location: [],
        code: 'NO_ROUTE',
        severity: 'Error',
        message: problem.detail,
      });
      record.status = 404;
      record.responseBody = problem;
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify(problem));
      return;
    }

    const upstreamPort = portOf.get(api);
    if (upstreamPort === undefined) {
      const detail = `${method} ${pathWithQuery}: the ${api} document was not started (startVippsPrism({ apis }))`;
      violations.push({
        ...base,
        status: 404,
        source: 'harness',
        location: [],
        code: 'NOT_STARTED',
        severity: 'Error',
        message: detail,
      });
      record.status = 404;
      record.responseBody = { type: 'about:blank', title: 'Not started', status: 404, detail };
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify(record.responseBody));
      return;
    }
    const doc = VIPPS_DOCUMENTS[api];
    const upstreamPath = doc.stripPrefix
      ? pathWithQuery.slice(doc.prefix.length - 1)
      : pathWithQuery;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (
        value === undefined ||
        HOP_BY_HOP.has(name) ||
        name === 'host' ||
        name === 'content-length'
      )
        continue;
      headers[name] = value;
    }
    if (raw.length > 0 || req.headers['content-length'] !== undefined)
      headers['content-length'] = raw.length;
    const prefer = preferFor(method, target.pathname);
    if (prefer !== undefined) headers['prefer'] = prefer;

    const answer = await new Promise<{
      status: number;
      headers: IncomingHttpHeaders;
      body: Buffer;
    }>((resolve, reject) => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: upstreamPort, method, path: upstreamPath, headers },
        (response) => {
          readAll(response).then(
            (body) =>
              resolve({ status: response.statusCode ?? 502, headers: response.headers, body }),
            reject,
          );
        },
      );
      upstream.on('error', reject);
      upstream.end(raw);
    });

    // What Prism says about the exchange.
    const listed: PrismViolationEntry[] = [];
    const header = answer.headers['sl-violations'];
    if (typeof header === 'string' && header !== '') {
      try {
        const parsed = JSON.parse(header) as unknown;
        if (Array.isArray(parsed)) listed.push(...(parsed as PrismViolationEntry[]));
      } catch {
        listed.push({ location: [], severity: 'Error', code: 'unreadable', message: header });
      }
    }
    for (const entry of listed) {
      const location = toStrings(entry.location);
      const violation: Violation = {
        ...base,
        status: answer.status,
        source: 'sl-violations',
        location,
        code: String(entry.code ?? ''),
        severity: String(entry.severity ?? ''),
        message: String(entry.message ?? ''),
      };
      (location[0] === 'response' ? responseViolations : violations).push(violation);
    }
    const responseBody = parseBody(answer.body);
    const problem = responseBody as {
      type?: unknown;
      title?: unknown;
      detail?: unknown;
      validation?: unknown;
    };
    if (
      problem &&
      typeof problem === 'object' &&
      typeof problem.type === 'string' &&
      problem.type.startsWith(PRISM_ERROR)
    ) {
      const name = problem.type.slice(PRISM_ERROR.length);
      // 4xx: Prism refused the request (security, validation, no such path or method, media
      // type). 5xx: Prism could not answer from the document (VIOLATIONS with --errors, …).
      const into = answer.status >= 500 ? responseViolations : violations;
      const detailed = Array.isArray(problem.validation)
        ? (problem.validation as PrismViolationEntry[])
        : [];
      if (detailed.length > 0 && listed.length === 0) {
        for (const entry of detailed) {
          into.push({
            ...base,
            status: answer.status,
            source: 'prism-error',
            location: toStrings(entry.location),
            code: String(entry.code ?? name),
            severity: String(entry.severity ?? 'Error'),
            message: String(entry.message ?? ''),
          });
        }
      } else if (listed.length === 0) {
        into.push({
          ...base,
          status: answer.status,
          source: 'prism-error',
          location: [],
          code: name,
          severity: 'Error',
          message: `${String(problem.title ?? name)}: ${String(problem.detail ?? '')}`,
        });
      }
    }

    record.status = answer.status;
    record.responseBody = responseBody;
    const out: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name === 'content-length') continue;
      out[name] = value;
    }
    out['content-length'] = answer.body.length;
    res.writeHead(answer.status, out);
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      violations.push({
        api: routeOf(new URL(req.url ?? '/', 'http://127.0.0.1').pathname),
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        status: 502,
        source: 'harness',
        location: [],
        code: 'UPSTREAM_FAILED',
        severity: 'Error',
        message,
      });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(message);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    responseViolations,
    requests,
    prefer(rule) {
      preferRules.push(rule);
    },
    clearPrefer() {
      preferRules = [];
    },
    reset() {
      violations.length = 0;
      responseViolations.length = 0;
      requests.length = 0;
      preferRules = [];
    },
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const prism of prisms) prism.child.kill('SIGTERM');
      const killLate = setTimeout(() => {
        for (const prism of prisms) prism.child.kill('SIGKILL');
      }, 3_000);
      await Promise.all(prisms.map((prism) => prism.exited));
      clearTimeout(killLate);
    },
  };
}
