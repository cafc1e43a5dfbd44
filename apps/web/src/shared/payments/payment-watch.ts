import { paymentUpdated, type PaymentUpdated } from '@alda/contract/schemas/orders';

/** Live connection states (SPEC §4), the values of SignalR's HubConnectionState. */
export const HUB_STATES = [
  'Disconnected',
  'Connecting',
  'Connected',
  'Disconnecting',
  'Reconnecting',
] as const;
export type HubState = (typeof HUB_STATES)[number];

/** SPEC §4/§8: waiting for a payment without an active connection fails with this. */
export const HUB_NOT_ACTIVE = 'Connection hub not active.';

/** Hub method and event names (SPEC §7 "Payment hub"). */
export const HUB_METHODS = {
  listen: 'ListenToOrder',
  stopListening: 'StopListeningToOrder',
  paymentUpdated: 'PaymentUpdated',
} as const;

/**
 * The part of `@microsoft/signalr`'s HubConnection the flow uses. The real one is built in
 * payment-hub.ts (loaded lazily); tests pass a fake.
 */
export interface HubConnectionLike {
  readonly state: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  invoke(method: string, ...args: unknown[]): Promise<unknown>;
  on(method: string, handler: (...args: unknown[]) => void): void;
  off(method: string, handler: (...args: unknown[]) => void): void;
  onclose(callback: (error?: Error) => void): void;
  onreconnecting(callback: (error?: Error) => void): void;
  onreconnected(callback: (connectionId?: string) => void): void;
}

/** A payment that will not change any more (the forward-only states end here). */
export const isSettled = (update: Pick<PaymentUpdated, 'status'>) => update.status !== 'pending';

const asState = (value: string): HubState =>
  (HUB_STATES as readonly string[]).includes(value) ? (value as HubState) : 'Disconnected';

/**
 * The client side of the payment flow of SPEC §4: connect, ListenToOrder(orderId), wait for
 * PaymentUpdated of that order, StopListeningToOrder(orderId), disconnect. Connect, listen and
 * stop errors are swallowed (SPEC §8): they only mean the caller has to learn the outcome another
 * way (the status screen reads the order over HTTP).
 */
export class PaymentHubClient {
  private current: HubState;
  private readonly stateListeners = new Set<(state: HubState) => void>();
  private readonly reconnectedListeners = new Set<() => void>();
  private readonly waiters = new Set<{ reject: (error: Error) => void }>();

  constructor(private readonly connection: HubConnectionLike) {
    this.current = asState(connection.state);
    connection.onreconnecting(() => this.sync());
    connection.onreconnected(() => {
      this.sync();
      for (const listener of this.reconnectedListeners) listener();
    });
    connection.onclose(() => {
      this.sync();
      // Reconnecting gave up (or the connection was stopped): nothing will arrive any more.
      for (const waiter of [...this.waiters]) waiter.reject(new Error(HUB_NOT_ACTIVE));
    });
  }

  /** The live connection state (SPEC §4). */
  get state(): HubState {
    return this.current;
  }

  /** Calls `listener` with every state change; returns the unsubscribe. */
  onStateChange(listener: (state: HubState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Calls `listener` after an automatic reconnect. The server forgot what the old connection
   * listened to, so the caller listens again (and re-reads the order: events may have been missed).
   */
  onReconnected(listener: () => void): () => void {
    this.reconnectedListeners.add(listener);
    return () => this.reconnectedListeners.delete(listener);
  }

  /** Starts the connection; true when connected. Errors are swallowed (SPEC §8). */
  async connect(): Promise<boolean> {
    if (this.connection.state !== 'Disconnected') return this.connection.state === 'Connected';
    const started = this.connection.start();
    this.sync();
    try {
      await started;
    } catch (error) {
      console.info('Payment hub: could not connect', error);
    }
    this.sync();
    return this.current === 'Connected';
  }

  /** ListenToOrder(orderId); true when the server accepted. Errors are swallowed (SPEC §8). */
  async listenToOrder(orderId: string): Promise<boolean> {
    return this.call(HUB_METHODS.listen, orderId);
  }

  /** StopListeningToOrder(orderId). Errors are swallowed. */
  async stopListening(orderId: string): Promise<boolean> {
    return this.call(HUB_METHODS.stopListening, orderId);
  }

  /**
   * Resolves with the PaymentUpdated of `orderId` that settles it (paid, failed, cancelled);
   * updates on the way (created → pending) go to `onUpdate`. Rejects with 'Connection hub not
   * active.' when there is no active connection now (SPEC §4), or when the connection closes for
   * good while waiting; a reconnect in between keeps the wait. `signal` aborts the wait.
   */
  waitForPayment(
    orderId: string,
    {
      signal,
      onUpdate,
    }: { signal?: AbortSignal; onUpdate?: (update: PaymentUpdated) => void } = {},
  ): Promise<PaymentUpdated> {
    const active =
      this.connection.state === 'Connected' || this.connection.state === 'Reconnecting';
    if (!active) return Promise.reject(new Error(HUB_NOT_ACTIVE));
    return new Promise<PaymentUpdated>((resolve, reject) => {
      const waiter = {
        reject: (error: Error) => {
          cleanup();
          reject(error);
        },
      };
      const onEvent = (...args: unknown[]) => {
        const parsed = paymentUpdated.safeParse(args[0]);
        if (!parsed.success) {
          console.warn('Payment hub: unexpected PaymentUpdated', parsed.error.issues);
          return;
        }
        if (parsed.data.orderId !== orderId) return;
        if (!isSettled(parsed.data)) {
          onUpdate?.(parsed.data);
          return;
        }
        cleanup();
        resolve(parsed.data);
      };
      const onAbort = () => waiter.reject(new DOMException('Aborted', 'AbortError'));
      const cleanup = () => {
        this.connection.off(HUB_METHODS.paymentUpdated, onEvent);
        this.waiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      if (signal?.aborted) {
        reject(new DOMException('Aborted', 'AbortError'));
        return;
      }
      this.connection.on(HUB_METHODS.paymentUpdated, onEvent);
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort);
    });
  }

  /** Stops the connection. Errors are swallowed. */
  async disconnect(): Promise<void> {
    if (this.connection.state === 'Disconnected') return;
    const stopping = this.connection.stop();
    this.sync();
    try {
      await stopping;
    } catch (error) {
      console.info('Payment hub: could not stop', error);
    }
    this.sync();
  }

  private async call(method: string, orderId: string): Promise<boolean> {
    if (this.connection.state !== 'Connected') return false;
    try {
      await this.connection.invoke(method, orderId);
      return true;
    } catch (error) {
      console.info(`Payment hub: ${method} failed`, error);
      return false;
    }
  }

  private sync(): void {
    const next = asState(this.connection.state);
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.stateListeners) listener(next);
  }
}

/**
 * The whole flow of SPEC §4 for one order: connect → ListenToOrder → wait for the PaymentUpdated
 * that settles it → StopListeningToOrder → disconnect. Resolves with that update, or null when the hub could not
 * tell (not connected, listen refused, connection lost for good, aborted): the caller then relies
 * on reading the order over HTTP. `onListening` runs once the server listens for the order (and
 * again after each reconnect), the moment to re-read the order once in case the payment settled
 * before the hub could tell.
 */
export async function watchPayment(
  client: PaymentHubClient,
  orderId: string,
  options: {
    signal?: AbortSignal;
    onListening?: () => void;
    onUpdate?: (update: PaymentUpdated) => void;
  } = {},
): Promise<PaymentUpdated | null> {
  const { signal, onListening, onUpdate } = options;
  const offReconnected = client.onReconnected(() => {
    void client.listenToOrder(orderId).then((listening) => {
      if (listening && !signal?.aborted) onListening?.();
    });
  });
  try {
    if (!(await client.connect()) || signal?.aborted) return null;
    if (!(await client.listenToOrder(orderId)) || signal?.aborted) return null;
    const waiting = client.waitForPayment(orderId, { signal, onUpdate });
    onListening?.();
    const update = await waiting;
    await client.stopListening(orderId);
    return update;
  } catch {
    return null;
  } finally {
    offReconnected();
    await client.disconnect();
  }
}
