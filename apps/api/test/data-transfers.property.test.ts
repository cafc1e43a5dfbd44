import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { dataTransfer } from '@alda/contract/schemas/data-transfers';
import { givenDataCounters, lineBalances } from '../src/db/schema/balances';
import { dataTransfers } from '../src/db/schema/data-transfers';
import { createDemoApp, LINES, type DemoName } from './demo-accounts';
import { usingPostgres } from './helper';

/*
 * Property: whatever mix of gifts, requests and (double) approvals runs at the same time, no
 * balance goes below 0, no monthly counter passes its max, the data in the system stays the same
 * and every line moved exactly what the approved transfers say. On PostgreSQL (CI) the requests
 * really run in parallel over the pool; on PGlite they interleave on one connection.
 */

const NUMBERS: { number: string; owner: DemoName; lineId: string }[] = [
  { number: '214455', owner: 'Jóannes', lineId: LINES.joannes },
  { number: '214466', owner: 'Jóannes', lineId: LINES.joannesWork },
  { number: '214456', owner: 'Sunneva', lineId: LINES.sunneva },
  { number: '557812', owner: 'Guðrun', lineId: LINES.gudrun },
  { number: '779031', owner: 'Rói', lineId: LINES.roi },
];
const LINE_IDS = NUMBERS.map((n) => n.lineId);

const op = fc.record({
  kind: fc.constantFrom('gift' as const, 'request' as const),
  from: fc.nat({ max: NUMBERS.length - 1 }),
  to: fc.nat({ max: NUMBERS.length - 1 }),
  amount: fc.integer({ min: 1, max: 2_500 }),
  approvals: fc.integer({ min: 1, max: 3 }),
});

describe(`data transfers under concurrency (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp();
  });
  afterAll(() => t.close());

  const balances = async () =>
    t.app.db.select().from(lineBalances).where(inArray(lineBalances.lineId, LINE_IDS));
  const counters = async () =>
    t.app.db.select().from(givenDataCounters).where(inArray(givenDataCounters.lineId, LINE_IDS));

  it('never overdraws, never passes the monthly counter, conserves data, moves each approval once', async () => {
    const start = new Map((await balances()).map((b) => [b.lineId, b.domesticRemainingMb]));
    const startGiven = new Map((await counters()).map((c) => [c.lineId, c.givenMb]));
    const total = [...start.values()].reduce((a, b) => a + b, 0);
    const seen = new Set<number>();

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        // Requests first (they move nothing), then every gift and every approval at once.
        const created = await Promise.all(
          ops.map(async (o) => {
            const from = NUMBERS[o.from];
            const to = NUMBERS[o.to];
            if (!from || !to) throw new Error('bad index');
            const res = await t.app.inject({
              method: 'POST',
              url: '/api/data-transfers',
              headers: t.as[from.owner],
              payload: {
                kind: o.kind,
                fromPhoneNumber: from.number,
                phoneNumber: to.number,
                dataAmount: o.amount,
              },
            });
            if (o.kind === 'gift' || res.statusCode !== 201) {
              seen.add(res.statusCode);
              expect([201, 422]).toContain(res.statusCode);
              return null;
            }
            return { transfer: dataEnvelope(dataTransfer).parse(res.json()).data, to, o };
          }),
        );
        const approvals = created.flatMap((c) =>
          c
            ? Array.from({ length: c.o.approvals }, () =>
                t.app.inject({
                  method: 'POST',
                  url: `/api/data-transfers/${c.transfer.id}/approve`,
                  headers: t.as[c.to.owner],
                }),
              )
            : [],
        );
        const gifts = ops
          .filter((o) => o.kind === 'gift')
          .map((o) => {
            const from = NUMBERS[o.from];
            const to = NUMBERS[o.to];
            if (!from || !to) throw new Error('bad index');
            return t.app.inject({
              method: 'POST',
              url: '/api/data-transfers',
              headers: t.as[from.owner],
              payload: {
                kind: 'gift',
                fromPhoneNumber: from.number,
                phoneNumber: to.number,
                dataAmount: o.amount,
              },
            });
          });
        const answers = await Promise.all([...approvals, ...gifts]);
        for (const res of answers) {
          seen.add(res.statusCode);
          expect([200, 201, 409, 422], res.body).toContain(res.statusCode);
        }
        // Each request was approved at most once.
        for (const c of created) {
          if (!c) continue;
          const ok = answers.filter(
            (r) =>
              r.statusCode === 200 && r.json<{ data: { id: string } }>().data.id === c.transfer.id,
          );
          expect(ok.length).toBeLessThanOrEqual(1);
        }

        // Invariants on the database.
        const now = await balances();
        for (const b of now) expect(b.domesticRemainingMb).toBeGreaterThanOrEqual(0);
        expect(now.reduce((a, b) => a + b.domesticRemainingMb, 0)).toBe(total);
        for (const c of await counters()) expect(c.givenMb).toBeLessThanOrEqual(c.maxMb);
        const moved = await t.app.db
          .select({
            lineId: sql<string>`line_id`,
            delta: sql<number>`sum(delta)::int`,
          })
          .from(
            sql`(select recipient_line_id as line_id, -data_mb as delta from ${dataTransfers} where status = 'approved' and kind = 'request'
                 union all select requester_line_id, data_mb from ${dataTransfers} where status = 'approved' and kind = 'request'
                 union all select requester_line_id, -data_mb from ${dataTransfers} where status = 'approved' and kind = 'gift'
                 union all select recipient_line_id, data_mb from ${dataTransfers} where status = 'approved' and kind = 'gift') as m`,
          )
          .groupBy(sql`line_id`);
        const delta = new Map(moved.map((m) => [m.lineId, Number(m.delta)]));
        for (const b of now)
          expect(b.domesticRemainingMb).toBe(
            (start.get(b.lineId) ?? 0) + (delta.get(b.lineId) ?? 0),
          );
        const given = await t.app.db
          .select({ lineId: sql<string>`giver`, mb: sql<number>`sum(data_mb)::int` })
          .from(
            sql`(select case when kind = 'gift' then requester_line_id else recipient_line_id end as giver, data_mb from ${dataTransfers} where status = 'approved') as g`,
          )
          .groupBy(sql`giver`);
        for (const g of given) {
          const [counter] = await t.app.db
            .select()
            .from(givenDataCounters)
            .where(eq(givenDataCounters.lineId, g.lineId));
          expect(counter?.givenMb).toBe((startGiven.get(g.lineId) ?? 0) + Number(g.mb));
        }
      }),
      { numRuns: 25 },
    );
    // The runs did reach the limits and the conflicts, not only the happy path.
    expect(seen.has(422)).toBe(true);
    expect(seen.has(409)).toBe(true);
    expect(seen.has(200)).toBe(true);
  }, 120_000);
});
