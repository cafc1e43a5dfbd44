import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, PaymentUpdated } from '@alda/contract/schemas/orders';
import { fakeHubConnection as fakeConnection } from './fake-hub-connection';
import { HUB_NOT_ACTIVE, PaymentHubClient, watchPayment } from './payment-watch';

const order = (id: string, paymentStatus: Order['paymentStatus']): Order => ({
  id,
  kind: 'extra_package',
  isComplete: paymentStatus === 'paid',
  isCancelled: false,
  isMainSubscription: false,
  planId: null,
  phoneNumber: '214455',
  price: { net: 4000, vat: 1000, gross: 5000 },
  paymentStatus,
  createdAt: '2026-11-22T05:00:00.000Z',
  completedAt: paymentStatus === 'paid' ? '2026-11-22T05:00:05.000Z' : null,
});

const update = (id: string, status: Order['paymentStatus'] = 'paid'): PaymentUpdated => ({
  orderId: id,
  status,
  order: order(id, status),
  updatedAt: '2026-11-22T05:00:05.000Z',
});

/** Lets pending promise callbacks run (fake timers do not drive microtasks). */
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('payment hub client (SPEC §4 "Payment flow")', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('SPEC §4 Payment flow: connects, listens to the order, waits for its PaymentUpdated, stops listening, then disconnects', async () => {
    const fake = fakeConnection();
    const client = new PaymentHubClient(fake.connection);
    const states: string[] = [];
    client.onStateChange((state) => states.push(state));
    const onListening = vi.fn();

    const result = watchPayment(client, 'o-1', { onListening });
    await flush();
    expect(fake.invoked).toEqual([{ method: 'ListenToOrder', args: ['o-1'] }]);
    expect(onListening).toHaveBeenCalledOnce();

    // An update of another order is not ours; the wait goes on.
    fake.emit('PaymentUpdated', update('o-2'));
    await flush();
    expect(fake.invoked).toHaveLength(1);

    fake.emit('PaymentUpdated', update('o-1'));
    await expect(result).resolves.toMatchObject({ orderId: 'o-1', status: 'paid' });
    expect(fake.invoked.map((i) => i.method)).toEqual(['ListenToOrder', 'StopListeningToOrder']);
    expect(fake.listeners('PaymentUpdated')).toBe(0);
    expect(client.state).toBe('Disconnected');
    expect(states).toEqual(['Connecting', 'Connected', 'Disconnecting', 'Disconnected']);
  });

  it('an update on the way (pending) is passed on and the wait goes on until the payment settles', async () => {
    const fake = fakeConnection();
    const client = new PaymentHubClient(fake.connection);
    const onUpdate = vi.fn();
    const result = watchPayment(client, 'o-1', { onUpdate });
    await flush();
    fake.emit('PaymentUpdated', update('o-1', 'pending'));
    await flush();
    expect(onUpdate).toHaveBeenCalledWith(expect.objectContaining({ status: 'pending' }));
    expect(fake.invoked.map((i) => i.method)).toEqual(['ListenToOrder']);
    expect(client.state).toBe('Connected');
    fake.emit('PaymentUpdated', update('o-1', 'paid'));
    await expect(result).resolves.toMatchObject({ status: 'paid' });
    expect(onUpdate).toHaveBeenCalledOnce();
  });

  it("SPEC §4/§8: waiting without an active connection fails with 'Connection hub not active.'", async () => {
    const client = new PaymentHubClient(fakeConnection().connection);
    await expect(client.waitForPayment('o-1')).rejects.toThrow(HUB_NOT_ACTIVE);
    expect(HUB_NOT_ACTIVE).toBe('Connection hub not active.');
  });

  it('SPEC §8: a failed connect is swallowed; the flow answers null so the screen reads the order over HTTP', async () => {
    const fake = fakeConnection({ startFails: true });
    const client = new PaymentHubClient(fake.connection);
    await expect(client.connect()).resolves.toBe(false);
    await expect(watchPayment(client, 'o-1')).resolves.toBeNull();
    expect(fake.invoked).toHaveLength(0);
    expect(client.state).toBe('Disconnected');
  });

  it('SPEC §8: a refused ListenToOrder is swallowed and the connection is closed', async () => {
    const fake = fakeConnection({ invokeFails: ['ListenToOrder'] });
    const client = new PaymentHubClient(fake.connection);
    const onListening = vi.fn();
    await expect(watchPayment(client, 'o-1', { onListening })).resolves.toBeNull();
    expect(onListening).not.toHaveBeenCalled();
    expect(client.state).toBe('Disconnected');
  });

  it('SPEC §4: after an automatic reconnect it listens again and re-reads the order; an update after that still arrives', async () => {
    const fake = fakeConnection();
    const client = new PaymentHubClient(fake.connection);
    const states: string[] = [];
    client.onStateChange((state) => states.push(state));
    const onListening = vi.fn();
    const result = watchPayment(client, 'o-1', { onListening });
    await flush();

    fake.drop();
    expect(client.state).toBe('Reconnecting');
    fake.reconnect();
    await flush();
    expect(fake.invoked.map((i) => i.method)).toEqual(['ListenToOrder', 'ListenToOrder']);
    expect(onListening).toHaveBeenCalledTimes(2);

    fake.emit('PaymentUpdated', update('o-1', 'failed'));
    await expect(result).resolves.toMatchObject({ status: 'failed' });
    expect(states).toContain('Reconnecting');
  });

  it('SPEC §4: when reconnecting gives up, the wait fails and the flow answers null (the HTTP fallback takes over)', async () => {
    const fake = fakeConnection();
    const client = new PaymentHubClient(fake.connection);
    const result = watchPayment(client, 'o-1');
    await flush();
    fake.drop();
    fake.giveUp();
    await expect(result).resolves.toBeNull();
    expect(client.state).toBe('Disconnected');
    expect(fake.listeners('PaymentUpdated')).toBe(0);
  });

  it('an aborted watch (the user left the screen) stops waiting and disconnects', async () => {
    const fake = fakeConnection();
    const client = new PaymentHubClient(fake.connection);
    const abort = new AbortController();
    const result = watchPayment(client, 'o-1', { signal: abort.signal });
    await flush();
    abort.abort();
    await expect(result).resolves.toBeNull();
    expect(client.state).toBe('Disconnected');
  });

  it('ignores a PaymentUpdated the contract does not describe', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = fakeConnection();
    const client = new PaymentHubClient(fake.connection);
    const result = watchPayment(client, 'o-1');
    await flush();
    fake.emit('PaymentUpdated', { orderId: 'o-1', status: 'bogus' });
    await flush();
    expect(fake.invoked).toHaveLength(1);
    fake.emit('PaymentUpdated', update('o-1'));
    await expect(result).resolves.toMatchObject({ status: 'paid' });
  });
});
