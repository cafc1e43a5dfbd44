import net from 'node:net';

/*
 * A TCP proxy for tests that need a network between the API and a server they can break on
 * purpose (issue 14, "Database outage"): point a client at `port` instead of the real server,
 * then `cut()` and `restore()`. Plain node:net, no protocol knowledge, so it works for
 * PostgreSQL, SMTP or anything else that speaks TCP.
 */

/**
 * Ties two sockets of a proxied connection together: both are kept in `open` while they live,
 * and an error or close on either ends both.
 */
export function pairSockets(client: net.Socket, upstream: net.Socket, open: Set<net.Socket>): void {
  open.add(client);
  open.add(upstream);
  const drop = () => {
    open.delete(client);
    open.delete(upstream);
    client.destroy();
    upstream.destroy();
  };
  for (const socket of [client, upstream]) {
    socket.on('error', drop);
    socket.on('close', drop);
  }
}

/** How the proxy treats new connections while it is cut. */
export type CutMode =
  /** Nothing listens on the port: a new connection fails at once with ECONNREFUSED (the server is down). */
  | 'refuse'
  /**
   * Connections are accepted but nothing ever comes back (a network that drops packets, a
   * hung server): only the client's own timeouts end them. They stay open until `close()`,
   * also after `restore()`, as a lost SYN's connection would never recover either.
   */
  | 'blackhole';

export interface TcpProxy {
  /** The local port clients connect to (127.0.0.1). */
  readonly port: number;
  /** Connections open now (forwarded and blackholed). */
  readonly connections: number;
  /** True between `cut()` and `restore()`. */
  readonly isCut: boolean;
  /**
   * Destroys every forwarded connection (both sides see a reset) and treats new ones by `mode`
   * until `restore()`. Resolves once the port no longer forwards.
   */
  cut(mode?: CutMode): Promise<void>;
  /** Forwards new connections again (on the same port). */
  restore(): Promise<void>;
  /** Stops listening and destroys every connection. */
  close(): Promise<void>;
}

/**
 * Starts a proxy on an ephemeral port of 127.0.0.1 that forwards every connection to
 * `target`. `listenPort` keeps a fixed port (0: any free one).
 */
export async function startTcpProxy(
  target: { host: string; port: number },
  listenPort = 0,
): Promise<TcpProxy> {
  const forwarded = new Set<net.Socket>();
  const held = new Set<net.Socket>();
  let mode: CutMode | undefined;
  let closed = false;

  const accept = (client: net.Socket) => {
    client.on('error', () => client.destroy());
    if (mode === 'blackhole') {
      // Accepted, never answered, never forwarded: what a dead network path looks like.
      held.add(client);
      client.on('close', () => held.delete(client));
      client.pause();
      return;
    }
    if (mode !== undefined || closed) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    pairSockets(client, upstream, forwarded);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  /*
   * One listening server per period of "up": `refuse` closes it (the port refuses at once) and
   * `restore` opens a new one on the same port. (A closed net.Server waits for its connections
   * before it counts as closed, so it is not reused.)
   */
  let server: net.Server | undefined;
  const listen = async (port: number): Promise<number> => {
    for (let attempt = 0; ; attempt += 1) {
      const next = net.createServer(accept);
      try {
        await new Promise<void>((resolve, reject) => {
          next.once('error', reject);
          next.listen({ port, host: '127.0.0.1' }, () => {
            next.off('error', reject);
            resolve();
          });
        });
        server = next;
        return (next.address() as net.AddressInfo).port;
      } catch (error) {
        // The port of a listener closed a moment ago may still be held for a few milliseconds.
        const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
        if (!busy || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const stopListening = () => {
    server?.close();
    server = undefined;
  };
  const resetAll = (sockets: Set<net.Socket>) => {
    for (const socket of [...sockets]) {
      // A reset, not a polite FIN: the peer learns at once that the connection is gone.
      if (!socket.destroyed) socket.resetAndDestroy();
    }
    sockets.clear();
  };

  const port = await listen(listenPort);

  return {
    port,
    get connections() {
      return forwarded.size / 2 + held.size;
    },
    get isCut() {
      return mode !== undefined;
    },
    async cut(cutMode = 'refuse') {
      if (closed) throw new Error('proxy closed');
      mode = cutMode;
      if (cutMode === 'refuse') stopListening();
      resetAll(forwarded);
      await Promise.resolve();
    },
    async restore() {
      if (closed) throw new Error('proxy closed');
      mode = undefined;
      if (!server) await listen(port);
    },
    async close() {
      closed = true;
      stopListening();
      resetAll(forwarded);
      resetAll(held);
      await Promise.resolve();
    },
  };
}
