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
 * A provider's published API documents under Stoplight Prism, as the provider in tests: one
 * `prism mock` (or `prism proxy`) process per document, behind one small HTTP server that routes
 * by path prefix. Shared by the Vipps MobilePay harness (vipps-prism.ts) and the TMF641 one
 * (tmf641-prism.ts); each describes its documents and prefixes, this does the rest.
 *
 * Every request is recorded in `requests`, and every way it breaks the documents in
 * `violations`: the `sl-violations` entries Prism adds for the request (missing required header
 * or property, wrong type, failed pattern or enum, …), the errors Prism answers with on its own
 * (401 UNAUTHORIZED where a document declares a security scheme, 422 UNPROCESSABLE_ENTITY, 404
 * NO_PATH_MATCHED_ERROR, 405, 415, …) and any path outside the prefixes (404 from here). A
 * contract test ends with `expect(prism.violations).toEqual([])`.
 *
 * What the answers get wrong is kept apart in `responseViolations` (`sl-violations` entries under
 * `response`, and Prism's own 5xx): in mock mode a published example that breaks its own schema,
 * in proxy mode an upstream answer that breaks the document. Neither is the request's fault.
 *
 * Mock mode (the default) answers with the documents' static examples (no `-d`): the same request
 * gets the same answer, and a test can ask for another documented one with `prefer()` (Prism's
 * `Prefer` header: `code=404`, `example=…`). Proxy mode (`upstream`) validates each request the
 * same way and then forwards it — valid or not — to a real server, whose answer comes back with
 * Prism's findings about it.
 */

export interface PrismDocument {
  /** Absolute path of the document. */
  file: string;
  /** The path prefix routed to it, with slashes on both ends (`/epayment/`). */
  prefix: string;
  /** Whether the prefix (without its last slash) is taken off before Prism sees the path. */
  stripPrefix: boolean;
}

export interface Violation<Api extends string = string> {
  /** The document the request was routed to; null when no prefix matched. */
  api: Api | null;
  method: string;
  /** The path the client asked for (with its query string). */
  path: string;
  /** The status the client was answered with. */
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

export interface RecordedRequest<Api extends string = string> {
  api: Api | null;
  method: string;
  /** The path without the query string, as the client sent it (before any prefix is taken off). */
  path: string;
  query: Record<string, string>;
  /** The request's headers, names in lower case (node:http). */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; the raw text if it is not JSON; undefined if empty. */
  body: unknown;
  /** What the client was answered with. */
  status: number;
  /** The answer's body parsed as JSON (raw text if not JSON; undefined if empty). */
  responseBody: unknown;
}

export interface PreferRule {
  method?: string;
  /** Matches the client's path (without query): a prefix string or a regular expression. */
  path: string | RegExp;
  /** The value of Prism's `Prefer` header, e.g. 'code=404' or 'example=QrImageUrl'. */
  prefer: string;
}

export interface PrismRouter<Api extends string = string> {
  /** Base URL (http://127.0.0.1:port, no trailing slash) of the router. */
  url: string;
  /** Everything the requests did against the documents; a passing contract test leaves it empty. */
  violations: Violation<Api>[];
  /** Where the answers (examples in mock mode, the upstream's in proxy mode) break the documents. */
  responseViolations: Violation<Api>[];
  /** Every request, in the order they arrived. */
  requests: RecordedRequest<Api>[];
  /** Sends `Prefer: <value>` to Prism for the requests that match, until `clearPrefer()`. */
  prefer(rule: PreferRule): void;
  clearPrefer(): void;
  /** Forgets the recorded requests, violations and prefer rules (the processes keep running). */
  reset(): void;
  /** Stops the router and every Prism process. */
  close(): Promise<void>;
}

export interface PrismRouterOptions<Api extends string> {
  /** Names the provider in the router's own 404 answers ('Vipps MobilePay', 'TMF641'). */
  label: string;
  documents: Record<Api, PrismDocument>;
  /** The documents to start (each Prism takes about a second of CPU to start). */
  apis: Api[];
  /** Pass `--errors` to Prism (see vipps-prism.ts for what it changes in mock mode). */
  errors?: boolean;
  /**
   * Per document: run `prism proxy` to this base URL instead of `prism mock`. The path Prism sees
   * is appended to it (`http://127.0.0.1:3000/tmf-api/serviceOrdering/v4` + `/serviceOrder`).
   */
  upstream?: Partial<Record<Api, string>>;
  /** How long to wait for every Prism to answer (default 60 s). */
  startTimeoutMs?: number;
  /** The router's port on 127.0.0.1 (default: one the kernel picks). */
  port?: number;
}

const exitWithParent = fileURLToPath(new URL('./exit-with-parent.cjs', import.meta.url));
const prismBin = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

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

interface PrismProcess<Api extends string> {
  api: Api;
  port: number;
  child: ChildProcess;
  exited: Promise<void>;
  output(): string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

async function startPrism<Api extends string>(
  api: Api,
  document: string,
  options: { errors: boolean; upstream: string | undefined; deadline: number },
): Promise<PrismProcess<Api>> {
  const args = ['--require', exitWithParent, prismBin];
  if (options.upstream === undefined) args.push('mock', document);
  else args.push('proxy', document, options.upstream);
  args.push('--host', '127.0.0.1', '--port', '0', '--verboseLevel', 'info');
  if (options.errors) args.push('--errors');
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
  const name = document.split('/').pop();

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
      } else if (gone || Date.now() > options.deadline) {
        clearInterval(timer);
        reject(new Error(`prism ${args[3]} ${name} did not start:\n${output}`));
      }
    }, 20);
  });
  // Listening is not yet answering: ask until it does (any answer: a 404 for this path). In
  // proxy mode an unknown path is forwarded, so the upstream answers (or Prism's 5xx does).
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
    if (gone || Date.now() > options.deadline) {
      child.kill('SIGKILL');
      throw new Error(`prism ${args[3]} ${name} does not answer:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { api, port, child, exited, output: () => output };
}

export function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function readAll(stream: IncomingMessage): Promise<Buffer> {
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

/** Starts one Prism per document and the router; resolves once every Prism answers. */
export async function startPrismRouter<Api extends string>(
  options: PrismRouterOptions<Api>,
): Promise<PrismRouter<Api>> {
  const { documents, label } = options;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  const started = await Promise.allSettled(
    options.apis.map((api) =>
      startPrism(api, documents[api].file, {
        errors: options.errors ?? false,
        upstream: options.upstream?.[api],
        deadline,
      }),
    ),
  );
  const prisms = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    for (const prism of prisms) prism.child.kill('SIGKILL');
    await Promise.all(prisms.map((prism) => prism.exited));
    throw failed.reason;
  }
  const portOf = new Map<Api, number>(prisms.map((prism) => [prism.api, prism.port]));
  const entries = Object.entries(documents) as [Api, PrismDocument][];
  const routeOf = (path: string): Api | null =>
    entries.find(([, doc]) => path.startsWith(doc.prefix))?.[0] ?? null;

  const violations: Violation<Api>[] = [];
  const responseViolations: Violation<Api>[] = [];
  const requests: RecordedRequest<Api>[] = [];
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
    const record: RecordedRequest<Api> = {
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

    const refuse = (code: 'NO_ROUTE' | 'NOT_STARTED', title: string, detail: string) => {
      violations.push({
        ...base,
        status: 404,
        source: 'harness',
        location: [],
        code,
        severity: 'Error',
        message: detail,
      });
      record.status = 404;
      record.responseBody = { type: 'about:blank', title, status: 404, detail };
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify(record.responseBody));
    };
    if (api === null) {
      const prefixes = entries.map(([, doc]) => doc.prefix).join(', ');
      refuse(
        'NO_ROUTE',
        `No ${label} document for this path`,
        `${method} ${pathWithQuery}: none of the prefixes ${prefixes}`,
      );
      return;
    }
    const upstreamPort = portOf.get(api);
    if (upstreamPort === undefined) {
      refuse(
        'NOT_STARTED',
        'Not started',
        `${method} ${pathWithQuery}: the ${api} document was not started (option apis)`,
      );
      return;
    }
    const doc = documents[api];
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
      // A connection of its own per exchange (`agent: false`): a socket kept alive in the shared
      // global agent can be closed by Prism's idle timeout just as it is reused ("socket hang
      // up"), and test files share that agent when they share a worker.
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: upstreamPort,
          method,
          path: upstreamPath,
          headers,
          agent: false,
        },
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
      // Proxy mode forwards a request no path of the document matches, with this warning.
      const unmatched = entry.code === undefined && entry.message === 'Selected route not found';
      const violation: Violation<Api> = {
        ...base,
        status: answer.status,
        source: 'sl-violations',
        location,
        code: unmatched ? 'NO_PATH_MATCHED_ERROR' : String(entry.code ?? ''),
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
      // type). 5xx: Prism could not answer from the document (VIOLATIONS with --errors, an
      // upstream that does not answer in proxy mode, …).
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
