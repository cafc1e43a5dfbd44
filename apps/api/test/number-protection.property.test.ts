import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { isLockedAt, type LockColumns } from '@alda/contract/rules/number-protection';
import {
  portOutCodeResponse,
  portOutInboundResponse,
} from '@alda/contract/schemas/number-protection';
import { actions } from '../src/db/schema/actions';
import { portOutCodes, portOutRequests } from '../src/db/schema/number-protection';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { createDemoApp, LINES, NOW } from './demo-accounts';
import { usingPostgres } from './helper';

/*
 * Issue 32 (ADR 0076) under concurrency: whatever mix of lock, unlock (after the password),
 * cancel and inbound port-out requests with the customer's code runs at the same time on one
 * number, each port request gets exactly one answer (201 or a 4xx refusal, never a 5xx), at most
 * one port is accepted and only while the number is open, every attempt is recorded once, and
 * nothing is half-written. The clock stands still during a mix, so no lock opens in it by time:
 * a number closed when the mix starts stays closed, and an open one closes only by a lock. On
 * PostgreSQL (CI) the requests really run in parallel over the pool; on PGlite they interleave
 * on one connection.
 */

const HOUR = 3_600_000;

type Op = 'lock' | 'unlock' | 'cancel' | 'port';
type Start = 'locked' | 'unlocking' | 'due' | 'unlocked';

const START_COLUMNS: Record<Start, LockColumns> = {
  locked: { numberLocked: true, unlockAt: null, unlockRequestedAt: null },
  // Waits: opens tomorrow.
  unlocking: {
    numberLocked: true,
    unlockRequestedAt: new Date(NOW.getTime() - HOUR),
    unlockAt: new Date(NOW.getTime() + 23 * HOUR),
  },
  // Due but not yet written by the job: open for every rule.
  due: {
    numberLocked: true,
    unlockRequestedAt: new Date(NOW.getTime() - 25 * HOUR),
    unlockAt: new Date(NOW.getTime() - HOUR),
  },
  unlocked: { numberLocked: false, unlockAt: null, unlockRequestedAt: null },
};

const count = (ops: readonly Op[], op: Op) => ops.filter((o) => o === op).length;

// At most three port requests and three password step-ups per mix: both are rate-limited at
// five per number / user, and a request takes its attempt back only after it is decided.
const mix = fc
  .array(fc.constantFrom<Op>('lock', 'unlock', 'cancel', 'port'), { minLength: 1, maxLength: 8 })
  .filter((ops) => count(ops, 'port') <= 3 && count(ops, 'unlock') <= 3);

describe(`number protection under concurrency, issue 32 (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  let seq = 0;
  beforeAll(async () => {
    t = await createDemoApp({ DEMO_MODE: 'true', NUMBER_UNLOCK_DELAY_H: '24' });
  });
  afterAll(() => t.close());

  /** A new number of Jóannes's (as his work number) in the given lock state, with a fresh code. */
  async function freshLine(start: Start) {
    const [template] = await t.app.db
      .select()
      .from(phoneLines)
      .where(eq(phoneLines.id, LINES.joannesWork));
    if (!template) throw new Error('no template line');
    seq += 1;
    const [line] = await t.app.db
      .insert(phoneLines)
      .values({
        msisdn: `68${String(seq).padStart(4, '0')}`,
        userId: template.userId,
        status: 'active',
        accountId: template.accountId,
        planId: template.planId,
        simType: 'esim',
        ...START_COLUMNS[start],
      })
      .returning();
    if (!line) throw new Error('no line');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${line.id}/port-out-code`,
      headers: t.as.Jóannes,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { line, code: dataEnvelope(portOutCodeResponse).parse(res.json()).data.code };
  }

  function fire(op: Op, lineId: string, msisdn: string, code: string) {
    const base = `/api/subscriptions/${lineId}/protection`;
    switch (op) {
      case 'lock':
        return t.app.inject({ method: 'POST', url: `${base}/lock`, headers: t.as.Jóannes });
      case 'unlock':
        return t.app.inject({
          method: 'POST',
          url: `${base}/unlock`,
          headers: t.as.Jóannes,
          payload: { password: DEMO_PASSWORD },
        });
      case 'cancel':
        return t.app.inject({ method: 'DELETE', url: `${base}/unlock`, headers: t.as.Jóannes });
      case 'port':
        return t.app.inject({
          method: 'POST',
          url: '/dev/port-out',
          payload: { phoneNumber: msisdn, code, provider: 'Hey' },
        });
    }
  }

  it('issue 32: concurrent lock, unlock, cancel and port-out — one answer per port, at most one accepted and only while open, every attempt recorded once, nothing half-written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Start>('locked', 'unlocking', 'due', 'unlocked'),
        mix,
        async (start, ops) => {
          const { line, code } = await freshLine(start);
          const closedAtStart = isLockedAt(START_COLUMNS[start], NOW);
          const answers = await Promise.all(
            ops.map(async (op) => {
              const res = await fire(op, line.id, line.msisdn, code);
              const error =
                res.statusCode >= 400 ? errorEnvelope.parse(res.json()).error.code : null;
              return { op, status: res.statusCode, error, body: res.body };
            }),
          );
          const ports = answers.filter((a) => a.op === 'port');
          const accepted = ports.filter((a) => a.status === 201);
          const refused = ports.filter((a) => a.status !== 201);
          const locks = answers.filter((a) => a.op === 'lock');

          // Every answer is a decision: no 5xx, no limit hit, the refusals the rules name.
          for (const a of answers) expect(a.status, `${a.op}: ${a.body}`).toBeLessThan(500);
          for (const a of answers.filter((x) => x.op === 'lock' || x.op === 'unlock'))
            expect(a.status, `${a.op}: ${a.body}`).toBe(200);
          for (const a of answers.filter((x) => x.op === 'cancel')) {
            if (a.status !== 200) {
              expect(a.status, a.body).toBe(409);
              expect(a.error).toBe('NUMBER_UNLOCK_NOT_PENDING');
            }
          }
          for (const a of refused) {
            expect([409, 422], a.body).toContain(a.status);
            expect(['NUMBER_LOCKED', 'PORT_OUT_CODE_INVALID']).toContain(a.error);
          }
          for (const a of accepted) {
            const data = dataEnvelope(portOutInboundResponse).parse(JSON.parse(a.body)).data;
            expect(data.accepted).toBe(true);
          }

          // At most one port, and only while the number is open.
          expect(accepted.length).toBeLessThanOrEqual(1);
          if (closedAtStart) {
            expect(accepted).toHaveLength(0);
            for (const a of refused) expect(a.error).toBe('NUMBER_LOCKED');
          } else {
            // Open at the start: only a lock in the mix can refuse a port as locked; the code is
            // refused only because a port took it; without a lock one port goes through.
            if (locks.length === 0) expect(accepted).toHaveLength(ports.length > 0 ? 1 : 0);
            for (const a of refused) {
              if (a.error === 'NUMBER_LOCKED') expect(locks.length).toBeGreaterThan(0);
              else expect(accepted).toHaveLength(1);
            }
          }
          // No cancel without an unlock waiting: never while open and nothing locked it.
          if (!closedAtStart && locks.length === 0)
            for (const a of answers.filter((x) => x.op === 'cancel')) expect(a.status).toBe(409);

          // The lock columns keep the contract's shape; closed stays closed, open closes only
          // by a lock (the clock stands still).
          const [after] = await t.app.db
            .select()
            .from(phoneLines)
            .where(eq(phoneLines.id, line.id));
          if (!after) throw new Error('line gone');
          expect(after.status).not.toBe('cancelled');
          expect(after.unlockAt === null).toBe(after.unlockRequestedAt === null);
          if (after.unlockAt) expect(after.numberLocked).toBe(true);
          expect(isLockedAt(after, NOW)).toBe(closedAtStart || locks.length > 0);
          if (!closedAtStart && locks.length === 0)
            expect({
              numberLocked: after.numberLocked,
              unlockAt: after.unlockAt,
              unlockRequestedAt: after.unlockRequestedAt,
            }).toEqual(START_COLUMNS[start]);
          // Every cancel answered 200 is one log entry (the owner is the line's user).
          expect(
            await t.app.db.$count(
              actions,
              and(eq(actions.lineId, line.id), eq(actions.type, 'number_unlock_cancelled')),
            ),
          ).toBe(answers.filter((a) => a.op === 'cancel' && a.status === 200).length);

          // Every port attempt is one request row, with the answer it got.
          const requests = await t.app.db
            .select()
            .from(portOutRequests)
            .where(eq(portOutRequests.msisdn, line.msisdn));
          expect(requests).toHaveLength(ports.length);
          expect(requests.filter((r) => r.outcome === 'accepted')).toHaveLength(accepted.length);
          expect(
            requests
              .filter((r) => r.outcome === 'refused')
              .map((r) => r.reason)
              .sort(),
          ).toEqual(refused.map((a) => a.error).sort());
          expect(
            await t.app.db.$count(
              actions,
              and(eq(actions.lineId, line.id), eq(actions.type, 'port_out_refused')),
            ),
          ).toBe(refused.length);

          // An accepted port: its code used once, one port_out order, the row pointing at it.
          const portOrders = await t.app.db
            .select()
            .from(orders)
            .where(and(eq(orders.lineId, line.id), eq(orders.lifecycleAction, 'port_out')));
          const codes = await t.app.db
            .select()
            .from(portOutCodes)
            .where(eq(portOutCodes.lineId, line.id));
          expect(codes).toHaveLength(1);
          expect(portOrders).toHaveLength(accepted.length);
          expect(codes.filter((c) => c.usedAt !== null)).toHaveLength(accepted.length);
          expect(codes[0]?.revokedAt).toBeNull();
          const [acceptedAnswer] = accepted;
          if (acceptedAnswer) {
            const data = dataEnvelope(portOutInboundResponse).parse(
              JSON.parse(acceptedAnswer.body),
            ).data;
            expect(portOrders[0]?.id).toBe(data.orderId);
            expect(requests.find((r) => r.outcome === 'accepted')?.orderId).toBe(data.orderId);
            expect(
              await t.app.db.$count(
                actions,
                and(eq(actions.lineId, line.id), eq(actions.type, 'port_out_accepted')),
              ),
            ).toBe(1);
          } else {
            expect(codes[0]?.usedAt).toBeNull();
          }
        },
      ),
      { numRuns: usingPostgres ? 40 : 30 },
    );

    // Across every run, nothing half-written: no port order without its accepted request row,
    // no used code without an order, no request row pointing at a missing order, and no line's
    // lock columns out of shape.
    const portOrders = await t.app.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.lifecycleAction, 'port_out'));
    const acceptedRows = await t.app.db
      .select()
      .from(portOutRequests)
      .where(eq(portOutRequests.outcome, 'accepted'));
    expect(acceptedRows.map((r) => r.orderId).sort()).toEqual(portOrders.map((o) => o.id).sort());
    expect(await t.app.db.$count(portOutCodes, isNotNull(portOutCodes.usedAt))).toBe(
      portOrders.length,
    );
    expect(
      await t.app.db.$count(
        phoneLines,
        or(
          and(isNotNull(phoneLines.unlockAt), eq(phoneLines.numberLocked, false)),
          and(isNotNull(phoneLines.unlockAt), isNull(phoneLines.unlockRequestedAt)),
          and(isNull(phoneLines.unlockAt), isNotNull(phoneLines.unlockRequestedAt)),
        ),
      ),
    ).toBe(0);
  });
});
