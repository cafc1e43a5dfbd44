import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createAnswerCache } from './answer-cache';

/** Change facts whose counter the test moves by hand. */
function facts() {
  const stamps = new Map<string, number>();
  return {
    stamps,
    version: async () => 1,
    stamp: (userId: string) => String(stamps.get(userId) ?? 0),
  };
}

const log = { error: () => {} } as unknown as FastifyBaseLogger;

describe('answer cache (ADR 0057): kept bytes, and `peek` without a promise', () => {
  it('answers the built body as its UTF-8 bytes and builds it once while the counter stands', async () => {
    const f = facts();
    const cache = createAnswerCache({ facts: f, log, maxEntries: 10, check: false });
    let builds = 0;
    const build = async () => {
      builds += 1;
      return '{"name":"Jóannes Ðaniel"}';
    };
    expect(cache.peek('u1', ['subscriptions'])).toBeUndefined();
    const first = await cache.get('u1', ['subscriptions'], build);
    expect(first.toString('utf8')).toBe('{"name":"Jóannes Ðaniel"}');
    expect(first.length).toBe(Buffer.byteLength('{"name":"Jóannes Ðaniel"}'));
    expect(await cache.get('u1', ['subscriptions'], build)).toBe(first);
    expect(cache.peek('u1', ['subscriptions'])).toBe(first);
    expect(builds).toBe(1);
    // Another customer, or other parts, is another answer.
    expect(cache.peek('u2', ['subscriptions'])).toBeUndefined();
    expect(cache.peek('u1', ['notifications'])).toBeUndefined();
    // The customer's counter moves: nothing kept is theirs any more.
    f.stamps.set('u1', 1);
    expect(cache.peek('u1', ['subscriptions'])).toBeUndefined();
    await cache.get('u1', ['subscriptions'], build);
    expect(builds).toBe(2);
  });

  it('peeks nothing with the check on, where every kept answer is compared with a fresh one', async () => {
    const f = facts();
    const cache = createAnswerCache({ facts: f, log, maxEntries: 10, check: true });
    let body = '{"a":1}';
    await cache.get('u1', ['x'], async () => body);
    expect(cache.peek('u1', ['x'])).toBeUndefined();
    expect((await cache.get('u1', ['x'], async () => body)).toString()).toBe('{"a":1}');
    body = '{"a":2}';
    await expect(cache.get('u1', ['x'], async () => body)).rejects.toThrow(/READ_CACHE_CHECK/);
  });

  it('keeps nothing with room for none (ANSWER_CACHE_ENTRIES=0)', async () => {
    const cache = createAnswerCache({ facts: facts(), log, maxEntries: 0, check: false });
    await cache.get('u1', ['x'], async () => '{}');
    expect(cache.peek('u1', ['x'])).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
