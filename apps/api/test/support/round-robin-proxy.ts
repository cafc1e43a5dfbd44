import http from 'node:http';
import net from 'node:net';
import { pairSockets } from './tcp-proxy';

/*
 * A load balancer for tests (issue 14, "Two instances, one database"): an HTTP proxy on
 * 127.0.0.1 that sends each request, and each WebSocket upgrade, to the next upstream in turn —
 * strict round robin, no stickiness, so consecutive requests of one client on one keep-alive
 * connection land on different instances. It appends the client's address to
 * `X-Forwarded-For` as nginx's `$proxy_add_x_forwarded_for` does (an API with `TRUST_PROXY`
 * for 127.0.0.1 then sees the address a test puts there). It records where every request went,
 * so a test can assert that its requests really alternated.
 */

/** One request or upgrade as the proxy routed it. */
export interface Routed {
  /** Index of the upstream in the list the proxy was started with. */
  upstream: number;
  kind: 'http' | 'upgrade';
  method: string;
  /** The path, without the query (it may carry an access token). */
  path: string;
}

export interface RoundRobinProxy {
  readonly url: string;
  readonly port: number;
  /** Every request and upgrade so far, in the order they arrived. */
  readonly routed: readonly Routed[];
  /** Stops listening and ends every connection (keep-alive, upgraded and upstream). */
  close(): Promise<void>;
}

/** Request headers that belong to one hop and are not forwarded as they are. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'upgrade']);

const forwardedFor = (request: http.IncomingMessage): string => {
  const client = request.socket.remoteAddress ?? '';
  const prior = request.headers['x-forwarded-for'];
  return prior ? `${String(prior)}, ${client}` : client;
};

/**
 * Starts the proxy in front of `upstreams` (base URLs such as `http://127.0.0.1:3001`) on
 * `port` of 127.0.0.1 (0: any free port).
 */
export async function startRoundRobinProxy(
  upstreams: readonly string[],
  port = 0,
): Promise<RoundRobinProxy> {
  const targets = upstreams.map((base) => new URL(base));
  if (targets.length === 0) throw new Error('round-robin proxy: no upstreams');
  const agents = targets.map(() => new http.Agent({ keepAlive: true }));
  const routed: Routed[] = [];
  const tunnels = new Set<net.Socket>();
  let turn = 0;

  const next = (kind: Routed['kind'], request: http.IncomingMessage) => {
    const upstream = turn % targets.length;
    turn += 1;
    const path = (request.url ?? '/').replace(/\?.*$/, '');
    routed.push({ upstream, kind, method: request.method ?? 'GET', path });
    return { upstream, target: targets[upstream] as URL };
  };

  const server = http.createServer((request, response) => {
    const { upstream, target } = next('http', request);
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    headers['x-forwarded-for'] = forwardedFor(request);
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
        agent: agents[upstream],
      },
      (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
        answer.pipe(response);
      },
    );
    forward.on('error', () => {
      // The upstream is gone (a test stopped it): what a balancer answers then.
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(forward);
  });

  // A WebSocket: the upgrade request goes to the next upstream as it came, then bytes both ways.
  server.on('upgrade', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const { target } = next('upgrade', request);
    const upstream = net.connect(Number(target.port), target.hostname);
    pairSockets(client, upstream, tunnels);
    upstream.on('connect', () => {
      const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        const name = request.rawHeaders[i] ?? '';
        if (name.toLowerCase() !== 'x-forwarded-for')
          lines.push(`${name}: ${request.rawHeaders[i + 1]}`);
      }
      lines.push(`X-Forwarded-For: ${forwardedFor(request)}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as net.AddressInfo).port;

  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    routed,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of [...tunnels]) socket.destroy();
      for (const agent of agents) agent.destroy();
      await closed;
    },
  };
}
