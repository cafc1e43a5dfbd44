import { withClient } from '../support/api-process';
import type { Purchase } from './scenario';

/*
 * What the database says after the scale test (issue 44 §4): every payment the test started is
 * fulfilled exactly once, and nothing is left stuck — no payment open, no claim or lease a dead
 * instance held that nobody took over. The tables and their rules: src/db/schema/payments.ts
 * (one payment per order; `fulfilled_at` set in the transaction that marks it paid; one receipt
 * per payment), orders.ts (provisioning_next_at: when the worker next acts), outbox.ts and
 * test-provider.ts (next_attempt_at: due, or leased while someone works on it).
 */

/** The numbers the test buys for (scenario.ts BUYS). */
const NUMBERS = ['214455', '214466', '557812', '779031'];

export interface Balances {
  /** msisdn → domestic data total (MB) and prepaid credit (øre). */
  [msisdn: string]: { domesticTotalMb: number | null; prepaidOere: number | null };
}

export async function snapshotBalances(url: string): Promise<Balances> {
  return withClient(url, async (db) => {
    const { rows } = await db.query<{
      msisdn: string;
      domestic_total_mb: number | null;
      balance_oere: number | null;
    }>(
      `select l.msisdn, b.domestic_total_mb, pb.balance_oere
         from phone_lines l
         left join line_balances b on b.line_id = l.id
         left join prepaid_balances pb on pb.line_id = l.id
        where l.msisdn = any($1)`,
      [NUMBERS],
    );
    return Object.fromEntries(
      rows.map((r) => [
        r.msisdn,
        { domesticTotalMb: r.domestic_total_mb, prepaidOere: r.balance_oere },
      ]),
    );
  });
}

interface Open {
  payments: number;
  webhooks: number;
}

async function openWork(url: string, since: Date): Promise<Open> {
  return withClient(url, async (db) => {
    const payments = await db.query<{ n: number }>(
      `select count(*)::int as n from payments where created_at >= $1 and state in ('created', 'pending')`,
      [since],
    );
    const webhooks = await db.query<{ n: number }>(
      `select count(*)::int as n from test_provider_webhooks where delivered_at is null`,
    );
    return { payments: payments.rows[0]?.n ?? 0, webhooks: webhooks.rows[0]?.n ?? 0 };
  });
}

/**
 * Waits until the test's payments are all settled and the test provider has delivered every
 * webhook. A webhook the killed instance was delivering stays leased for the provider's lease
 * (30 s, test-provider/provider.ts) before another instance takes it over: this waits for that
 * too, so "taken over" is seen, not assumed. Fails after `timeoutMs` with what is still open.
 */
export async function waitForQuiet(url: string, since: Date, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await openWork(url, since);
    if (open.payments === 0 && open.webhooks === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `Nothing left open ${timeoutMs} ms after the load: ${open.payments} payments still created/pending, ${open.webhooks} provider webhooks undelivered`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface DatabaseVerdict {
  /** Payments the test started: orders of the test's kinds placed since its start. */
  made: number;
  /** Paid, fulfilled (fulfilled_at), the order complete, and exactly one receipt. */
  fulfilledOnce: number;
  /** Orders no customer heard of (the answer lost and no retry got it). */
  unknownToCustomers: number;
  stuck: Record<string, number>;
  /** Balance changes against what the paid orders should have added. */
  effects: { msisdn: string; expected: number; actual: number; unit: 'MB' | 'øre' }[];
  broken: string[];
}

export async function checkDatabase(
  url: string,
  input: { since: Date; purchases: readonly Purchase[]; balancesBefore: Balances },
): Promise<DatabaseVerdict> {
  const broken: string[] = [];
  const { since, purchases, balancesBefore } = input;
  return withClient(url, async (db) => {
    const { rows } = await db.query<{
      id: string;
      kind: string;
      msisdn: string | null;
      payment_status: string;
      is_complete: boolean;
      payment_id: string | null;
      state: string | null;
      fulfilled: boolean;
      amount_oere: number | null;
      data_mb: number | null;
      receipts: number;
    }>(
      `select o.id, o.kind, o.msisdn, o.payment_status, o.is_complete,
              p.id as payment_id, p.state, p.fulfilled_at is not null as fulfilled, p.amount_oere,
              e.data_mb,
              (select count(*) from receipts r where r.payment_id = p.id)::int as receipts
         from orders o
         left join payments p on p.order_id = o.id
         left join extra_packages e on e.id = o.package_id
        where o.created_at >= $1 and o.kind in ('extra_package', 'top_up')`,
      [since],
    );
    const once = (r: (typeof rows)[number]) =>
      r.state === 'paid' &&
      r.fulfilled &&
      r.is_complete &&
      r.payment_status === 'paid' &&
      r.receipts === 1;
    const fulfilledOnce = rows.filter(once);
    for (const r of rows.filter((row) => !once(row))) {
      broken.push(
        `Order ${r.id} (${r.kind}) is fulfilled exactly once: payment ${r.state ?? 'missing'}, fulfilled ${r.fulfilled}, order ${r.payment_status}${r.is_complete ? ' complete' : ''}, ${r.receipts} receipts`,
      );
    }
    const known = new Set(purchases.map((p) => p.orderId).filter(Boolean));
    const inDatabase = new Set(rows.map((r) => r.id));
    const unknown = rows.filter((r) => !known.has(r.id));
    if (unknown.length > 0)
      broken.push(
        `Every order in the database is one a customer was told of: ${unknown.length} are not (${unknown.map((r) => r.id).join(', ')})`,
      );
    const phantom = [...known].filter((id) => !inDatabase.has(id as string));
    if (phantom.length > 0)
      broken.push(`Every order a customer was told of is in the database: ${phantom.join(', ')}`);

    // The effects, exactly once: each paid package added its data, each top-up its amount.
    const after = await snapshotBalances(url);
    const effects: DatabaseVerdict['effects'] = [];
    for (const msisdn of NUMBERS) {
      const paid = fulfilledOnce.filter((r) => r.msisdn === msisdn);
      if (paid.length === 0) continue;
      const before = balancesBefore[msisdn];
      const now = after[msisdn];
      const topUps = paid.filter((r) => r.kind === 'top_up');
      const packages = paid.filter((r) => r.kind === 'extra_package');
      if (topUps.length > 0) {
        const expected = topUps.reduce((sum, r) => sum + (r.amount_oere ?? 0), 0);
        const actual = (now?.prepaidOere ?? 0) - (before?.prepaidOere ?? 0);
        effects.push({ msisdn, expected, actual, unit: 'øre' });
      }
      if (packages.length > 0) {
        const expected = packages.reduce((sum, r) => sum + (r.data_mb ?? 0), 0);
        const actual = (now?.domesticTotalMb ?? 0) - (before?.domesticTotalMb ?? 0);
        effects.push({ msisdn, expected, actual, unit: 'MB' });
      }
    }
    for (const e of effects)
      if (e.expected !== e.actual)
        broken.push(
          `The paid orders of ${e.msisdn} added ${e.expected} ${e.unit} once: the balance changed by ${e.actual} ${e.unit}`,
        );

    // Nothing stuck.
    const count = async (sql: string, params: unknown[] = []) =>
      (await db.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;
    const stuck: Record<string, number> = {
      'payments created/pending': await count(
        `select count(*)::int as n from payments where created_at >= $1 and state in ('created', 'pending')`,
        [since],
      ),
      'provider webhooks undelivered': await count(
        `select count(*)::int as n from test_provider_webhooks where delivered_at is null`,
      ),
      // The provisioning worker runs every 500 ms here: a due order untouched for 5 s was left.
      'provisioning orders overdue': await count(
        `select count(*)::int as n from orders
          where provisioning_next_at <= now() - interval '5 seconds' and not is_complete and not is_cancelled`,
      ),
      'outbox messages overdue': await count(
        `select count(*)::int as n from outbox_messages
          where state = 'queued' and next_attempt_at <= now() - interval '10 seconds'`,
      ),
      'refunds (a charge after its payment closed)': await count(
        `select count(*)::int as n from payment_refunds`,
      ),
      'data exports waiting': await count(
        `select count(*)::int as n from data_exports
          where state in ('queued', 'preparing') and created_at <= now() - interval '30 seconds'`,
      ),
      'transactions left open': await count(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and state like 'idle in transaction%'
            and state_change <= now() - interval '5 seconds'`,
      ),
    };
    for (const [what, n] of Object.entries(stuck))
      if (n > 0) broken.push(`Nothing stuck: ${n} ${what}`);

    return {
      made: rows.length,
      fulfilledOnce: fulfilledOnce.length,
      unknownToCustomers: unknown.length,
      stuck,
      effects,
      broken,
    };
  });
}
