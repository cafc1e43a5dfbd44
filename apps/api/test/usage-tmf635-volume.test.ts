import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { tmfError, tmfUsageAnswer } from '@alda/contract/schemas/usage-tmf635';
import errorsEn from '@alda/contract/locales/errors.en.json';
import type { TmfUsageInput } from '@alda/contract/schemas/usage-tmf635';
import { usageRecordsResponse } from '@alda/contract/schemas/usage';
import { seedDemoData } from '../src/seed/seed';
import { createDemoApp, NOW, USAGE_FEED_TOKEN } from './demo-accounts';
import { createTestApp, usingPostgres } from './helper';
import { expectValid, fromUsageCreate } from './usage-tmf635-document';

/*
 * Issue 61 §3: the TMF635 feed is called by a charging system — one machine, thousands of records
 * a second — not by a person's browser. The per-address limit for people (RATE_LIMIT_MAX, 600 a
 * minute) must not apply to it; its own limit, per service token, is USAGE_FEED_RATE_PER_MIN
 * (docs/decisions/0083-usage-tmf635.md). Numbers: Jóannes 214455.
 */

const URL = '/tmf-api/usageManagement/v4/usage';
/** The charging system's one address (TEST-NET-2: inject sends nothing on a network). */
const FEED_ADDRESS = '198.51.100.7';

/** A data Usage for Jóannes as a client built from the document writes it: no id. */
function usageAt(second: number): TmfUsageInput {
  return {
    usageDate: new Date(Date.UTC(2026, 5, 15, 8, 0, second)).toISOString(),
    usageType: 'data',
    relatedParty: [{ id: '298214455', role: 'subscriber', '@referredType': 'Subscriber' }],
    usageCharacteristic: [
      { name: 'dataVolume', valueType: 'Quantity', value: { amount: 512, units: 'KB' } },
    ],
  };
}

/** A call of Jóannes's, as a client built from the document writes it: no id. */
function callAt(second: number): TmfUsageInput {
  return {
    usageDate: new Date(Date.UTC(2026, 5, 15, 8, 0, second)).toISOString(),
    usageType: 'voice',
    relatedParty: [{ id: '298214455', role: 'subscriber', '@referredType': 'Subscriber' }],
    usageCharacteristic: [
      { name: 'duration', valueType: 'Quantity', value: { amount: 42, units: 's' } },
      { name: 'otherParty', valueType: 'string', value: '+298 211111' },
    ],
  };
}

describe(`the TMF635 feed at a charging system's rate (issue 61 §3, ${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('issue 61 §3: 5,000 single-Usage POSTs from one address within one minute are all accepted, and the per-address limit for people is left whole', async () => {
    const t = await createDemoApp({ USAGE_FEED_TOKEN });
    const realNow = Date.now;
    try {
      // The defaults: people get 600 a minute per address, the feed its own limit.
      expect(t.config.rateLimitMax).toBe(600);
      expect(t.config.usageFeedRatePerMin).toBe(600_000);
      const headers = {
        authorization: `Bearer ${USAGE_FEED_TOKEN}`,
        'content-type': 'application/json',
      };
      fromUsageCreate(callAt(0));

      // All 5,000 inside one minute of the limiters' clock (`Date.now`), however slow this
      // machine is: that clock stands still while they are sent. Only `Date.now` is held, and
      // directly: vitest's fake Date makes every `new Date()` of the app half again as slow.
      const minuteStart = realNow();
      Date.now = () => minuteStart;
      const started = performance.now();
      const statuses = new Map<number, number>();
      const ids = new Set<string>();
      let first: LightMyRequestResponse | undefined;
      const CHUNK = 25;
      for (let from = 0; from < 5_000; from += CHUNK) {
        const answers = await Promise.all(
          Array.from({ length: CHUNK }, (_, i) =>
            t.app.inject({
              method: 'POST',
              url: URL,
              remoteAddress: FEED_ADDRESS,
              headers,
              payload: JSON.stringify(callAt(from + i)),
            }),
          ),
        );
        for (const res of answers) {
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode === 201) ids.add(tmfUsageAnswer.parse(res.json()).id);
        }
        if (from === 0) [first] = answers;
      }
      const seconds = (performance.now() - started) / 1000;
      Date.now = realNow;
      expect(Object.fromEntries(statuses)).toEqual({ 201: 5_000 });
      expect(ids.size).toBe(5_000);
      expectValid('Usage', first?.json());
      expect(first?.headers['x-ratelimit-limit']).toBe('600000');
      console.info(`5,000 single-Usage POSTs in ${seconds.toFixed(1)} s`);

      // The same address's budget for people is untouched: its first request of the minute.
      const person = await t.app.inject({
        method: 'GET',
        url: '/api/subscriptions',
        remoteAddress: FEED_ADDRESS,
        headers: t.as.Jóannes,
      });
      expect(person.statusCode).toBe(200);
      expect(person.headers['x-ratelimit-limit']).toBe('600');
      expect(person.headers['x-ratelimit-remaining']).toBe('599');
    } finally {
      Date.now = realNow;
      await t.close();
    }
  }, 120_000);

  it("issue 61 §3: the feed's own limit, USAGE_FEED_RATE_PER_MIN, counts per token over all its addresses — over it 429 RATE_LIMITED with Retry-After, the TMF635 Error or the JSON feed's envelope, also with RATE_LIMIT_MAX=0; 0 leaves the feed unlimited", async () => {
    const t = await createDemoApp({ USAGE_FEED_TOKEN, USAGE_FEED_RATE_PER_MIN: '3' });
    try {
      const post = (address: string, second: number) =>
        t.app.inject({
          method: 'POST',
          url: URL,
          remoteAddress: address,
          headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}` },
          payload: usageAt(second),
        });
      // Three requests from three of the charging system's addresses, then a fourth: one count.
      for (const [i, address] of ['198.51.100.1', '198.51.100.2', '198.51.100.3'].entries())
        expect((await post(address, i)).statusCode).toBe(201);
      const over = await post('198.51.100.4', 3);
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expectValid('Error', over.json());
      expect(tmfError.parse(over.json())).toEqual({
        code: 'RATE_LIMITED',
        reason: errorsEn.RATE_LIMITED,
        status: '429',
      });
      // People at those addresses are not held up by it.
      const person = await t.app.inject({
        method: 'GET',
        url: '/api/subscriptions',
        remoteAddress: '198.51.100.4',
        headers: t.as.Jóannes,
      });
      expect(person.statusCode).toBe(200);

      // The JSON feed, on the same token, has the same limit.
      const records = (n: number) => ({
        records: [
          {
            recordId: `json-${n}`,
            phoneNumber: '214455',
            usedMb: 1,
            kind: 'domestic',
            occurredAt: '2026-06-15T08:00:00.000Z',
          },
        ],
      });
      const json = (n: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/usage/records',
          remoteAddress: `198.51.100.${10 + n}`,
          headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}` },
          payload: records(n),
        });
      for (const n of [1, 2, 3]) {
        const res = await json(n);
        expect(res.statusCode).toBe(200);
        dataEnvelope(usageRecordsResponse).parse(res.json());
      }
      const jsonOver = await json(4);
      expect(jsonOver.statusCode).toBe(429);
      expect(jsonOver.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    } finally {
      await t.close();
    }

    // With the people's limit off (RATE_LIMIT_MAX=0) the feed's still counts; 0 turns it off.
    for (const [env, limited] of [
      [{ RATE_LIMIT_MAX: '0', USAGE_FEED_RATE_PER_MIN: '2' }, true],
      [{ RATE_LIMIT_MAX: '2', USAGE_FEED_RATE_PER_MIN: '0' }, false],
    ] as const) {
      const other = await createTestApp({ USAGE_FEED_TOKEN, ...env }, { now: () => NOW });
      try {
        await seedDemoData(other.app.db, NOW);
        const statuses: number[] = [];
        for (let second = 0; second < 4; second += 1) {
          const res = await other.app.inject({
            method: 'POST',
            url: URL,
            remoteAddress: FEED_ADDRESS,
            headers: { authorization: `Bearer ${USAGE_FEED_TOKEN}` },
            payload: usageAt(second),
          });
          statuses.push(res.statusCode);
        }
        expect(statuses, JSON.stringify(env)).toEqual(
          limited ? [201, 201, 429, 429] : [201, 201, 201, 201],
        );
      } finally {
        await other.close();
      }
    }
  });
});
