import type { HubConnectionLike } from './payment-watch';

/* Test support (not imported by the app): the payment-watch unit tests and the status screen's
 * component tests drive the hub through this fake. */

/**
 * A fake of SignalR's HubConnection: the state machine of the real one (start → Connected,
 * stop → Disconnected, drop → Reconnecting → Connected | Disconnected) with the server's side
 * under the test's control.
 */
export function fakeHubConnection(options: { startFails?: boolean; invokeFails?: string[] } = {}) {
  const handlers = new Map<string, Set<(...args: unknown[]) => void>>();
  const callbacks = {
    close: [] as ((error?: Error) => void)[],
    reconnecting: [] as ((error?: Error) => void)[],
    reconnected: [] as ((id?: string) => void)[],
  };
  const invoked: { method: string; args: unknown[] }[] = [];
  const connection = {
    state: 'Disconnected',
    async start() {
      connection.state = 'Connecting';
      await Promise.resolve();
      if (options.startFails) {
        connection.state = 'Disconnected';
        throw new Error('negotiate failed');
      }
      connection.state = 'Connected';
    },
    async stop() {
      connection.state = 'Disconnecting';
      await Promise.resolve();
      connection.state = 'Disconnected';
      for (const cb of callbacks.close) cb();
    },
    async invoke(method: string, ...args: unknown[]) {
      invoked.push({ method, args });
      if (options.invokeFails?.includes(method)) throw new Error(`${method} refused`);
      return null;
    },
    on(method: string, handler: (...args: unknown[]) => void) {
      if (!handlers.has(method)) handlers.set(method, new Set());
      handlers.get(method)!.add(handler);
    },
    off(method: string, handler: (...args: unknown[]) => void) {
      handlers.get(method)?.delete(handler);
    },
    onclose: (cb: (error?: Error) => void) => void callbacks.close.push(cb),
    onreconnecting: (cb: (error?: Error) => void) => void callbacks.reconnecting.push(cb),
    onreconnected: (cb: (id?: string) => void) => void callbacks.reconnected.push(cb),
  } satisfies HubConnectionLike & Record<string, unknown>;
  return {
    connection,
    invoked,
    /** The server sends an event. */
    emit(method: string, ...args: unknown[]) {
      for (const handler of handlers.get(method) ?? []) handler(...args);
    },
    listeners: (method: string) => handlers.get(method)?.size ?? 0,
    drop() {
      connection.state = 'Reconnecting';
      for (const cb of callbacks.reconnecting) cb(new Error('socket closed'));
    },
    reconnect() {
      connection.state = 'Connected';
      for (const cb of callbacks.reconnected) cb('conn-2');
    },
    giveUp() {
      connection.state = 'Disconnected';
      for (const cb of callbacks.close) cb(new Error('reconnect attempts exhausted'));
    },
  };
}
