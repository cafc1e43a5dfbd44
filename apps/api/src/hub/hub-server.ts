import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@alda/contract/errors';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { z } from 'zod';
import type { Database } from '../db/client';
import { databaseUnavailableReason } from '../db/errors';
import { parseSessionsRevoked, SESSION_REVOKED_CHANNEL } from '../modules/auth/session-events';
import { findActiveSessionIds } from './repo';
import { errorResponses } from '../http';
import { errorMessage } from '../i18n';
import { requireUser } from '../plugins/auth';
import { pickLocale } from '@alda/contract/locale';
import type { AuthUser } from '../plugins/auth';
import { createConnectionTokens } from './connection-tokens';
import {
  checkHandshake,
  closeMessage,
  completionMessage,
  handshakeResponse,
  HubProtocolError,
  invocationMessage,
  MessageReader,
  MessageType,
  parseClientMessage,
  pingMessage,
  type InvocationMessage,
} from './protocol';

/*
 * The server side of an ASP.NET Core SignalR hub over WebSockets with the JSON protocol
 * (dotnet/aspnetcore src/SignalR/docs/specs: TransportProtocols.md, HubProtocol.md), enough for
 * the official `@microsoft/signalr` client to work unchanged: negotiate, the WebSocket upgrade,
 * handshake, invocations with completions, server-to-client invocations, pings, timeouts and the
 * Close message. What a hub does (its methods) comes from a HubDefinition; payment-hub.ts is
 * the one we have. Not supported: MessagePack, Server-Sent Events, long polling, streaming,
 * stateful reconnect, negotiate-less connects (docs/decisions/0051-payment-hub.md).
 */

export interface HubTimings {
  /** Send a Ping when nothing else was sent for this long (SPEC §9: 15 s). */
  keepAliveMs: number;
  /** Close a connection that sent nothing for this long (SPEC §9: 30 s). */
  serverTimeoutMs: number;
  /** Close a connection that has not completed the handshake within this long. */
  handshakeTimeoutMs: number;
  /** A negotiate answer's connection token must be used within this long. */
  connectionTokenTtlMs: number;
}

export interface HubLimits {
  /** Largest message (and WebSocket frame) a client may send, in bytes. */
  maxMessageBytes: number;
  /** Invocations of one connection waiting to run; more is a misbehaving client. */
  maxQueuedInvocations: number;
  /** Bytes queued for a client that does not read; beyond it the connection is dropped. */
  maxBufferedBytes: number;
  /** Open connections of one customer on one instance; more are refused with 429. */
  maxConnectionsPerUser: number;
}

export type HubOptions = HubTimings & HubLimits;

/** One live connection, as hub methods and events see it. */
export interface HubConnection {
  readonly connectionId: string;
  readonly userId: string;
  /** Sends a server-to-client invocation (no answer expected); false when it is gone. */
  send(target: string, args: unknown[]): boolean;
}

/** A failure a hub method reports to its caller: the message becomes the completion's error. */
export class HubError extends Error {
  override name = 'HubError';
}

/** What a hub method answers: the completion's result, and what to do once it was sent. */
export interface HubMethodOutcome {
  /** Omitted for a method without a result (a void method in ASP.NET Core terms). */
  result?: unknown;
  /** Runs after the completion was sent (e.g. a first event the caller should get). */
  followUp?: () => void;
}

export interface HubMethod {
  /** How many arguments the method takes (SignalR matches invocations by count). */
  parameters: number;
  invoke(connection: HubConnection, args: unknown[]): Promise<HubMethodOutcome>;
}

export interface HubDefinition {
  /** Method names are matched case-insensitively, as ASP.NET Core does. */
  methods: Record<string, HubMethod>;
  /** A connection completed its handshake: it can be sent invocations from now on. */
  onConnected?(connection: HubConnection): void;
  onDisconnected?(connection: HubConnection): void;
}

export interface HubServer {
  /** Live connections (handshake done or not). */
  readonly size: number;
  /** Closes every connection with a Close message (allowReconnect) and code 1000. */
  closeAll(): Promise<void>;
  /** Ends, with a Close that forbids reconnecting, the connections these sessions opened. */
  closeSessions(sessionIds: readonly string[]): number;
  /** The sessions that opened the live connections (each once). */
  sessionIds(): string[];
}

export interface HubServerDeps {
  /** Base path, e.g. PAYMENT_HUB_PATH; negotiate is `${path}/negotiate`. */
  path: string;
  hub: HubDefinition;
  options: HubOptions;
  /** Verifies an access token (the same verification as `app.authenticate`). */
  authenticate(accessToken: string): Promise<AuthUser | null>;
  /** Key that signs connection tokens. */
  tokenKey: Uint8Array;
  /** The clock access tokens are checked against (the app's `now`). */
  now?: () => Date;
  /** A short name for log lines. */
  name: string;
  /**
   * The database whose NOTIFYs say which sessions ended (logout, new password): every hub ends
   * those sessions' connections, on every instance (ADR 0051).
   */
  database: Pick<Database, 'db' | 'listen'>;
}

type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;
/** Per HTTP server, its hubs' upgrade handlers by path. */
const upgradeRoutes = new WeakMap<object, Map<string, UpgradeHandler>>();

const negotiateQuery = z.object({
  negotiateVersion: z.coerce.number().int().min(0).optional(),
});

const availableTransports = z.array(
  z.object({ transport: z.literal('WebSockets'), transferFormats: z.array(z.literal('Text')) }),
);

const negotiateResponse = z.union([
  z.object({
    negotiateVersion: z.literal(1),
    connectionId: z.string(),
    connectionToken: z.string(),
    availableTransports,
  }),
  z.object({ negotiateVersion: z.literal(0), connectionId: z.string(), availableTransports }),
]);

const TRANSPORTS = [{ transport: 'WebSockets' as const, transferFormats: ['Text' as const] }];

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** How long the shutdown waits for clients to answer the close handshake before cutting. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Installs a hub: the negotiate route (a normal, authenticated Fastify route) and the
 * WebSocket upgrade on `app.server` for the base path. Connections are closed with a Close
 * message (allowReconnect) when the app closes, before the HTTP server stops.
 */
export async function registerHubServer(
  app: FastifyInstance,
  deps: HubServerDeps,
): Promise<HubServer> {
  const { path, options } = deps;
  const log = app.log.child({ hub: deps.name });
  const tokens = createConnectionTokens({
    key: deps.tokenKey,
    ttlMs: options.connectionTokenTtlMs,
  });
  const methods = new Map(
    Object.entries(deps.hub.methods).map(([name, method]) => [name.toLowerCase(), method]),
  );
  const connections = new Set<Connection>();
  const perUser = new Map<string, number>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes,
    // JSON text frames are small; compression would cost memory per idle connection.
    perMessageDeflate: false,
  });
  let closing = false;

  const negotiate: FastifyPluginAsyncZod = async (scope) => {
    scope.post(
      `${path}/negotiate`,
      {
        onRequest: scope.authenticate,
        schema: {
          tags: ['hubs'],
          summary: `Negotiate a ${deps.name} hub connection (SignalR; SPEC §7 Payment hub, ADR 0088 support hub)`,
          description:
            'SignalR negotiate (TransportProtocols.md). Answers a single-use `connectionToken` (valid 15 s) to open the WebSocket at the hub path with `?id=<connectionToken>&access_token=<jwt>` (or an Authorization header). Only WebSockets with the JSON protocol (Text) are offered.',
          security: [{ bearerAuth: [] }],
          querystring: negotiateQuery,
          response: { 200: negotiateResponse, ...errorResponses(401) },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const { connectionId, connectionToken } = tokens.issue(user.id);
        // Version 0 clients use the connection id as `id`; ours is the (secret) token then.
        if ((request.query.negotiateVersion ?? 0) < 1) {
          return {
            negotiateVersion: 0 as const,
            connectionId: connectionToken,
            availableTransports: TRANSPORTS,
          };
        }
        return {
          negotiateVersion: 1 as const,
          connectionId,
          connectionToken,
          availableTransports: TRANSPORTS,
        };
      },
    );
  };
  await app.register(negotiate);

  // The server's hubs share one upgrade listener, which picks the hub by path (the payment
  // hub, the support hub); a path no hub has is refused once, by the first hub registered.
  let hubsByPath = upgradeRoutes.get(app.server);
  if (!hubsByPath) {
    const routes = new Map<string, UpgradeHandler>();
    hubsByPath = routes;
    upgradeRoutes.set(app.server, routes);
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      const handler = routes.get(pathname) ?? routes.values().next().value;
      handler?.(request, socket, head);
    });
  }
  hubsByPath.set(path, (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Until the upgrade is done a reset socket must not crash the process.
    socket.on('error', () => socket.destroy());
    handleUpgrade(request, socket, head).catch((error: unknown) => {
      // Authentication reads the session: during a database outage that is a 503 to retry
      // (docs/decisions/0060-database-outage.md), as for any HTTP request.
      const unavailable = databaseUnavailableReason(error);
      if (unavailable !== undefined) {
        log.warn({ reason: unavailable }, 'hub upgrade failed: database unavailable');
        refuse(socket, request, 503, 'DATABASE_UNAVAILABLE');
        return;
      }
      log.error({ err: error }, 'hub upgrade failed');
      refuse(socket, request, 500, 'INTERNAL');
    });
  });

  async function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      refuse(socket, request, 404, 'ROUTE_NOT_FOUND');
      return;
    }
    if (closing) {
      refuse(socket, request, 503, 'SERVICE_UNAVAILABLE');
      return;
    }
    // Browsers cannot set headers on a WebSocket, so the official client puts the token in the
    // query there; in Node it sends the Authorization header.
    const accessToken =
      url.searchParams.get('access_token') ??
      BEARER.exec(request.headers.authorization ?? '')?.[1] ??
      null;
    const user = accessToken ? await deps.authenticate(accessToken) : null;
    if (!user) {
      refuse(socket, request, 401, 'UNAUTHORIZED');
      return;
    }
    // A payment screen needs one connection; a flood of them is refused before the token is spent.
    if ((perUser.get(user.id) ?? 0) >= options.maxConnectionsPerUser) {
      refuse(socket, request, 429, 'RATE_LIMITED');
      return;
    }
    const token = url.searchParams.get('id');
    const redeemed = token ? tokens.redeem(token, user.id) : null;
    if (!redeemed) {
      refuse(socket, request, 404, 'NOT_FOUND');
      return;
    }
    if (closing || socket.destroyed) {
      socket.destroy();
      return;
    }
    // No await between the checks above and this: handleUpgrade calls back synchronously (no
    // verifyClient, no compression), so the per-user count cannot be overtaken.
    wss.handleUpgrade(request, socket, head, (ws) => {
      accept(ws, redeemed.connectionId, user);
    });
  }

  function refuse(socket: Duplex, request: IncomingMessage, status: number, code: ErrorCode) {
    if (socket.destroyed) return;
    const locale = pickLocale(request.headers['accept-language']);
    const body = JSON.stringify({ error: { code, message: errorMessage(code, locale) } });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        'Connection: close',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...(status === 401 ? ['WWW-Authenticate: Bearer realm="alda"'] : []),
        '',
        body,
      ].join('\r\n'),
    );
    log.info({ status, code }, 'hub connection refused');
  }

  function accept(ws: WebSocket, connectionId: string, user: AuthUser) {
    const userId = user.id;
    const connection = new Connection(ws, connectionId, userId, options, log, methods);
    if (deps.hub.onConnected) {
      const onConnected = deps.hub.onConnected;
      connection.onHandshaken = () => onConnected(connection);
    }
    connection.authExpiresAt = user.tokenExpiresAt.getTime();
    connection.sessionId = user.sessionId;
    connections.add(connection);
    perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
    log.info({ connectionId, userId }, 'hub connected');
    ws.on('close', (code) => {
      connections.delete(connection);
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left > 0) perUser.set(userId, left);
      else perUser.delete(userId);
      connection.closed = true;
      if (connection.handshaken) deps.hub.onDisconnected?.(connection);
      log.info(
        { connectionId, userId, code, durationMs: Date.now() - connection.openedAt },
        'hub disconnected',
      );
    });
  }

  // One timer for all connections: pings, client timeouts, handshake timeouts.
  const tick = Math.max(
    10,
    Math.min(options.keepAliveMs, options.serverTimeoutMs, options.handshakeTimeoutMs) / 4,
  );
  const clock = deps.now ?? (() => new Date());
  const sweeper = setInterval(() => {
    const now = Date.now();
    const authNow = clock().getTime();
    for (const connection of connections) connection.sweep(now, authNow);
  }, tick);
  sweeper.unref();

  async function closeAll() {
    const all = [...connections];
    const gone = all.map(
      (connection) =>
        new Promise<void>((resolve) => {
          if (connection.ws.readyState === WebSocket.CLOSED) resolve();
          else connection.ws.once('close', () => resolve());
        }),
    );
    for (const connection of all) connection.close({ allowReconnect: true });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(gone),
      new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    for (const connection of connections) connection.ws.terminate();
  }

  // preClose runs before the HTTP server stops; upgraded sockets would otherwise keep
  // server.close() waiting, and clients should hear "reconnect" rather than a dropped socket.
  app.addHook('preClose', async () => {
    closing = true;
    clearInterval(sweeper);
    await closeAll();
    wss.close();
  });

  const server: HubServer = {
    get size() {
      return connections.size;
    },
    closeAll,
    closeSessions(sessionIds) {
      const ended = new Set(sessionIds);
      let closed = 0;
      for (const connection of connections) {
        if (connection.sessionId === null || !ended.has(connection.sessionId)) continue;
        connection.close({ error: 'The session has ended.', allowReconnect: false });
        closed += 1;
      }
      return closed;
    },
    sessionIds() {
      const ids = new Set<string>();
      for (const connection of connections) {
        if (connection.sessionId !== null) ids.add(connection.sessionId);
      }
      return [...ids];
    },
  };

  /** Sessions that ended while the LISTEN connection was down: ask which are still signed in. */
  async function endMissedSessions() {
    const open = server.sessionIds();
    const active = await findActiveSessionIds(deps.database.db, open);
    const ended = open.filter((id) => !active.has(id));
    const closed = ended.length > 0 ? server.closeSessions(ended) : 0;
    if (closed > 0) log.info({ closed }, 'hub connections of sessions ended meanwhile closed');
  }

  let stopHearingSessions: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    // A session ended (logout, new password): its connections end too, on every instance.
    stopHearingSessions = await deps.database.listen(
      SESSION_REVOKED_CHANNEL,
      (payload) => {
        const closed = server.closeSessions(parseSessionsRevoked(payload));
        if (closed > 0) log.info({ closed }, 'hub connections of ended sessions closed');
      },
      {
        // Sessions ended during a database outage were not heard
        // (docs/decisions/0060-database-outage.md).
        onReconnected: () => {
          endMissedSessions().catch((error: unknown) => {
            log.error({ err: error }, 'checking hub sessions after reconnect failed');
          });
        },
      },
    );
  });
  app.addHook('preClose', async () => {
    await stopHearingSessions?.();
    stopHearingSessions = undefined;
  });
  return server;
}

class Connection implements HubConnection {
  handshaken = false;
  closed = false;
  readonly openedAt = Date.now();
  /** When the access token the connection was opened with expires (the app's clock, ms). */
  authExpiresAt = Number.POSITIVE_INFINITY;
  /** The session of the access token the connection was opened with. */
  sessionId: string | null = null;
  /** Called once the handshake has been answered (HubDefinition.onConnected). */
  onHandshaken: (() => void) | undefined;
  private lastReceivedAt = Date.now();
  private lastSentAt = Date.now();
  private readonly reader: MessageReader;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    readonly ws: WebSocket,
    readonly connectionId: string,
    readonly userId: string,
    private readonly options: HubOptions,
    private readonly log: FastifyBaseLogger,
    private readonly methods: ReadonlyMap<string, HubMethod>,
  ) {
    this.reader = new MessageReader(options.maxMessageBytes);
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    // Errors (bad frames, too large) are followed by 'close'; nothing else to do.
    ws.on('error', (error) => this.log.debug({ err: error }, 'hub socket error'));
  }

  send(target: string, args: unknown[]): boolean {
    if (!this.handshaken) return false;
    return this.write(invocationMessage(target, args));
  }

  private write(text: string): boolean {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > this.options.maxBufferedBytes) {
      this.log.warn({ connectionId: this.connectionId }, 'hub client does not read; dropped');
      this.ws.terminate();
      return false;
    }
    this.ws.send(text);
    this.lastSentAt = Date.now();
    return true;
  }

  /**
   * Sends Close (after the handshake) and closes the WebSocket with 1000. A client that does not
   * answer the closing handshake (often a dead one, after a timeout) is cut after a grace period
   * instead of ws's 30 s.
   */
  close(options: { error?: string; allowReconnect?: boolean } = {}) {
    if (this.closed) return;
    if (this.handshaken) this.write(closeMessage(options));
    this.closed = true;
    this.ws.close(1000);
    const cut = setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS);
    cut.unref();
    this.ws.once('close', () => clearTimeout(cut));
  }

  /** `now`: timers (monotonic enough); `authNow`: the app's clock, for the token's expiry. */
  sweep(now: number, authNow: number) {
    if (this.closed) return;
    // As ASP.NET Core's CloseOnAuthenticationExpiration: the connection lives as long as its
    // access token; the client reconnects with a fresh one (accessTokenFactory).
    if (authNow >= this.authExpiresAt) {
      this.log.info({ connectionId: this.connectionId }, 'hub access token expired');
      this.close({ error: 'The access token has expired.', allowReconnect: true });
      return;
    }
    if (!this.handshaken) {
      if (now - this.openedAt >= this.options.handshakeTimeoutMs) this.close();
      return;
    }
    if (now - this.lastReceivedAt >= this.options.serverTimeoutMs) {
      this.close({
        error: 'Server timeout elapsed without receiving a message from the client.',
        allowReconnect: true,
      });
      return;
    }
    if (now - this.lastSentAt >= this.options.keepAliveMs) this.write(pingMessage());
  }

  private receive(data: RawData, isBinary: boolean) {
    if (this.closed) return;
    this.lastReceivedAt = Date.now();
    try {
      if (isBinary) throw new HubProtocolError('Only text frames are supported (JSON protocol).');
      const bytes = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
      const text = bytes.toString('utf8');
      for (const message of this.reader.push(text)) {
        if (this.closed) return;
        this.handle(message);
      }
    } catch (error) {
      if (error instanceof HubProtocolError) {
        this.log.info(
          { connectionId: this.connectionId, reason: error.message },
          'hub bad message',
        );
        this.close({ error: `Connection closed with an error. ${error.message}` });
      } else {
        this.log.error({ err: error, connectionId: this.connectionId }, 'hub receive failed');
        this.close({ error: 'Connection closed with an error.' });
      }
    }
  }

  private handle(text: string) {
    if (!this.handshaken) {
      const refused = checkHandshake(text);
      this.write(handshakeResponse(refused ?? undefined));
      if (refused) {
        this.close();
        return;
      }
      this.handshaken = true;
      this.onHandshaken?.();
      return;
    }
    const message = parseClientMessage(text);
    switch (message.type) {
      case MessageType.Invocation:
        this.enqueue(message);
        return;
      case MessageType.StreamInvocation:
        this.write(
          completionMessage(message.invocationId, { error: 'Streaming is not supported.' }),
        );
        return;
      case MessageType.Close:
        // The client is leaving; answer with the closing handshake, no Close message.
        this.closed = true;
        this.ws.close(1000);
        return;
      default:
        // Pings (already counted as received), cancellations of nothing, stream items.
        return;
    }
  }

  /** Invocations of one connection run one at a time, in order (as in ASP.NET Core). */
  private enqueue(message: InvocationMessage) {
    if (this.queued >= this.options.maxQueuedInvocations) {
      throw new HubProtocolError('Too many invocations waiting.');
    }
    this.queued += 1;
    this.queue = this.queue
      .then(() => this.invoke(message))
      .finally(() => {
        this.queued -= 1;
      });
  }

  private async invoke(message: InvocationMessage) {
    if (this.closed) return;
    const { invocationId, target } = message;
    const answer = (outcome: { result: unknown } | { error: string }) => {
      if (invocationId !== undefined) this.write(completionMessage(invocationId, outcome));
    };
    const method = this.methods.get(target.toLowerCase());
    if (!method) {
      answer({ error: `Unknown hub method '${target}'` });
      return;
    }
    if (message.streamIds && message.streamIds.length > 0) {
      answer({ error: `Failed to invoke '${target}': client streams are not supported.` });
      return;
    }
    if (message.arguments.length !== method.parameters) {
      answer({
        error: `Failed to invoke '${target}': it takes ${method.parameters} argument(s), got ${message.arguments.length}.`,
      });
      return;
    }
    let outcome: HubMethodOutcome;
    try {
      outcome = await method.invoke(this, message.arguments);
    } catch (error) {
      if (error instanceof HubError) {
        answer({ error: error.message });
      } else {
        this.log.error({ err: error, target }, 'hub method failed');
        answer({ error: `An unexpected error occurred invoking '${target}' on the server.` });
      }
      return;
    }
    answer({ result: outcome.result });
    outcome.followUp?.();
  }
}
