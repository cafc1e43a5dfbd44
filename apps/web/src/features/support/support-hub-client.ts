import { SUPPORT_UPDATED_TARGET, supportUpdated } from '@alda/contract/schemas/support';
import type { HubConnectionLike } from '@/shared/payments/payment-watch';

/**
 * The client side of the support hub (issue 46 "live"): the server sends `SupportUpdated` with
 * the conversation's id whenever one of the customer's conversations changes (an answer, closed
 * by the desk); there is nothing to call on it. Connect and stop errors are swallowed, as on the
 * payment hub (SPEC §8): without a connection the screens poll instead.
 */
export class SupportHubClient {
  private connected = false;
  private readonly stateListeners = new Set<(connected: boolean) => void>();
  private readonly updateListeners = new Set<(conversationId: string) => void>();
  private readonly reconnectedListeners = new Set<() => void>();

  constructor(private readonly connection: HubConnectionLike) {
    connection.onreconnecting(() => this.sync());
    connection.onreconnected(() => {
      this.sync();
      for (const listener of [...this.reconnectedListeners]) listener();
    });
    connection.onclose(() => this.sync());
    connection.on(SUPPORT_UPDATED_TARGET, (...args: unknown[]) => {
      const parsed = supportUpdated.safeParse(args[0]);
      if (!parsed.success) {
        console.warn('Support hub: unexpected SupportUpdated', parsed.error.issues);
        return;
      }
      for (const listener of [...this.updateListeners]) listener(parsed.data.conversationId);
    });
  }

  /** Whether updates arrive now (connected, not reconnecting). */
  get live(): boolean {
    return this.connected;
  }

  /** Calls `listener` whenever {@link live} changes; returns the unsubscribe. */
  onStateChange(listener: (connected: boolean) => void): () => void {
    this.stateListeners.add(listener);
    return () => void this.stateListeners.delete(listener);
  }

  /** Calls `listener` with the id of each conversation that changed; returns the unsubscribe. */
  onUpdate(listener: (conversationId: string) => void): () => void {
    this.updateListeners.add(listener);
    return () => void this.updateListeners.delete(listener);
  }

  /** Calls `listener` after an automatic reconnect: updates may have been missed meanwhile. */
  onReconnected(listener: () => void): () => void {
    this.reconnectedListeners.add(listener);
    return () => void this.reconnectedListeners.delete(listener);
  }

  /** Starts the connection; true when connected. Errors are swallowed (SPEC §8). */
  async connect(): Promise<boolean> {
    if (this.connection.state !== 'Disconnected') return this.connection.state === 'Connected';
    try {
      await this.connection.start();
    } catch (error) {
      console.info('Support hub: could not connect', error);
    }
    this.sync();
    return this.connected;
  }

  /** Stops the connection. Errors are swallowed. */
  async disconnect(): Promise<void> {
    if (this.connection.state === 'Disconnected') return;
    try {
      await this.connection.stop();
    } catch (error) {
      console.info('Support hub: could not stop', error);
    }
    this.sync();
  }

  private sync(): void {
    const next = this.connection.state === 'Connected';
    if (next === this.connected) return;
    this.connected = next;
    for (const listener of [...this.stateListeners]) listener(next);
  }
}
