import { describe, expect, it } from 'vitest';
import type { Database, ListenOptions, NotificationHandler } from './client';
import { createNoticeTrust } from './notice-trust';

/** A database whose LISTEN connection the test loses and restores by hand. */
function fakeDatabase() {
  const listeners: { channel: string; handler: NotificationHandler; options: ListenOptions }[] = [];
  const database = {
    listen: async (channel: string, handler: NotificationHandler, options: ListenOptions = {}) => {
      listeners.push({ channel, handler, options });
      return async () => {};
    },
  } as unknown as Database;
  return {
    database,
    listeners,
    lose: () => listeners.forEach((l) => l.options.onLost?.()),
    restore: () => listeners.forEach((l) => l.options.onReconnected?.()),
  };
}

describe('ADR 0057: memory kept by NOTIFY is trusted only while its LISTEN connection is up', () => {
  it('is not trusted before listening, nor while the connection is down, and starts over when it is back', async () => {
    const db = fakeDatabase();
    let cleared = 0;
    const trust = createNoticeTrust(db.database, () => (cleared += 1));
    expect(trust.trusted).toBe(false);

    const stop = await trust.listen([['a', () => {}]]);
    expect(db.listeners.map((l) => l.channel)).toEqual(['a']);
    expect(trust.trusted).toBe(true);
    const before = cleared;

    // A read begun before the loss must not be kept after it, even once the connection is back.
    const startedIn = trust.epoch;
    db.lose();
    expect(trust.trusted).toBe(false);
    expect(cleared).toBe(before + 1);
    expect(trust.mayKeep(startedIn)).toBe(false);
    db.restore();
    expect(trust.trusted).toBe(true);
    expect(cleared).toBe(before + 2);
    expect(trust.mayKeep(startedIn)).toBe(false);
    expect(trust.mayKeep(trust.epoch)).toBe(true);

    await stop();
    expect(trust.trusted).toBe(false);
  });

  it('forget() starts the memory over: reads begun earlier are not kept', async () => {
    const trust = createNoticeTrust(fakeDatabase().database, () => {});
    await trust.listen([['a', () => {}]]);
    const startedIn = trust.epoch;
    trust.forget();
    expect(trust.mayKeep(startedIn)).toBe(false);
  });
});
