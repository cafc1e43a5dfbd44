import { and, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { billPath } from '@alda/contract/app-paths';
import { VAT_PERCENT } from '@alda/contract/constants';
import { formatKr } from '@alda/contract/format/money';
import { formatMonth } from '@alda/contract/format/date';
import { splitVat } from '@alda/contract/format/money';
import {
  billDueDate,
  billNumber,
  paymentReference,
  periodBounds,
} from '@alda/contract/rules/bills';
import type { Db } from '../../db/client';
import { accounts } from '../../db/schema/accounts';
import {
  billCounter,
  billCustomers,
  billItems,
  billRuns,
  bills,
  type BillRow,
  type NewBillItemRow,
} from '../../db/schema/bills';
import { orders } from '../../db/schema/orders';
import { payments, receipts } from '../../db/schema/payments';
import { phoneLines } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';
import { insertNotifications } from '../notifications/notify';
import type { StoredReceiptLine } from '../receipts/issue';
import { loadBilledAccounts } from '../billing/service';
import { monthlyPriceLines } from '../billing/price';

/*
 * Making one customer's bill for one month (docs/decisions/0098-monthly-bill.md). A bill is what
 * was charged for the month, as the payments recorded it:
 *
 * - the month's payment (`subscription_payment` of the period): its receipt's lines — the plans,
 *   the EU package, an easy number's one-off price, an earlier month's charges abroad — each on
 *   the number it is for;
 * - the purchases of the month (packages, top-ups: every other paid order whose receipt was
 *   issued in the month);
 * - when the month was not paid: the month's plan prices as owed (not the one-off and roaming
 *   extras: they stay owed and go with the next payment, so nothing is billed twice).
 *
 * Everything is read and written in the caller's transaction: the bill, its items, the run
 * marker, the notification and its push commit together or not at all.
 */

type ItemKind = NewBillItemRow['kind'];

/** The order kinds whose receipts a bill lists besides the month's payment. */
const PURCHASE_KIND: Partial<Record<string, ItemKind>> = {
  extra_package: 'package',
  top_up: 'top_up',
  eu_package: 'eu_package',
  sim_change: 'other',
  new_subscription: 'other',
  add_member: 'other',
};

/** Section order within a number: the plan first, then what came on top. */
const KIND_ORDER: Record<ItemKind, number> = {
  plan: 0,
  member: 0,
  eu_package: 1,
  number_fee: 2,
  roaming: 3,
  package: 4,
  top_up: 5,
  other: 6,
};

interface DraftItem {
  msisdn: string | null;
  kind: ItemKind;
  fo: string;
  en: string;
  oere: number;
  orderId: string | null;
  paidAt: Date | null;
  method: 'card' | 'mobilepay' | 'agreement' | null;
  cardBrand: string | null;
  cardLast4: string | null;
}

const BILL_READY = {
  title: { fo: 'Rokningin er klár', en: 'Your bill is ready' },
  body: (period: string, oere: number) => ({
    fo: `Rokningin fyri ${formatMonth(period, 'fo')} er klár: ${formatKr(oere, 'fo')}.`,
    en: `Your bill for ${formatMonth(period, 'en')} is ready: ${formatKr(oere, 'en')}.`,
  }),
};

/** The receipts of the customer's payments that belong on the month's bill. */
async function paidItems(tx: Db, userId: string, period: string): Promise<DraftItem[]> {
  const { start, next } = periodBounds(period);
  const rows = await tx
    .select({
      lines: receipts.lines,
      issuedAt: receipts.issuedAt,
      orderId: orders.id,
      orderKind: orders.kind,
      msisdn: orders.msisdn,
      method: payments.method,
      cardBrand: payments.cardBrand,
      cardLast4: payments.cardLast4,
    })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .innerJoin(payments, eq(payments.id, receipts.paymentId))
    .where(
      and(
        eq(receipts.userId, userId),
        or(
          and(eq(orders.kind, 'subscription_payment'), eq(orders.billingPeriod, period)),
          and(
            inArray(orders.kind, Object.keys(PURCHASE_KIND) as (typeof orders.kind._.data)[]),
            gte(receipts.issuedAt, start),
            lt(receipts.issuedAt, next),
          ),
        ),
      ),
    )
    .orderBy(receipts.issuedAt, receipts.id);
  return rows.flatMap((row) =>
    (row.lines as StoredReceiptLine[]).map((line): DraftItem => {
      const charged = line.charged;
      return {
        msisdn: charged?.phoneNumber ?? row.msisdn,
        kind: charged?.kind ?? PURCHASE_KIND[row.orderKind] ?? 'other',
        fo: charged?.label.fo ?? line.description,
        en: charged?.label.en ?? line.descriptionEn ?? line.description,
        oere: line.total.gross,
        orderId: row.orderId,
        paidAt: row.issuedAt,
        method: row.method,
        cardBrand: row.cardBrand,
        cardLast4: row.cardLast4,
      };
    }),
  );
}

/** The month's plan prices as owed, for a month its payment never paid. */
async function owedItems(tx: Db, userId: string, period: string): Promise<DraftItem[]> {
  const lastInstant = new Date(periodBounds(period).next.getTime() - 1);
  const billed = (await loadBilledAccounts(tx, userId, lastInstant)).map((a) => ({
    ...a,
    extras: [],
  }));
  const fo = monthlyPriceLines(billed, 'fo').lines;
  const en = monthlyPriceLines(billed, 'en').lines;
  return fo
    .map((line, i) => ({
      msisdn: line.phoneNumber,
      kind: line.kind,
      fo: line.description,
      en: en[i]?.description ?? line.description,
      oere: line.price.gross,
      orderId: null,
      paidAt: null,
      method: null,
      cardBrand: null,
      cardLast4: null,
    }))
    .filter((item) => item.oere > 0);
}

/** The lines behind the numbers: whose each is, for the sections and for members' access. */
async function linesOf(tx: Db, payerId: string, msisdns: readonly string[]) {
  if (msisdns.length === 0) return new Map<string, LineFacts>();
  const rows = await tx
    .select({
      id: phoneLines.id,
      msisdn: phoneLines.msisdn,
      userId: phoneLines.userId,
      firstname: users.firstname,
      owned: sql<boolean>`${accounts.ownerUserId} = ${payerId}`,
      live: sql<boolean>`${phoneLines.status} <> 'cancelled'`,
    })
    .from(phoneLines)
    .leftJoin(users, eq(users.id, phoneLines.userId))
    .leftJoin(accounts, eq(accounts.id, phoneLines.accountId))
    .where(inArray(phoneLines.msisdn, [...msisdns]));
  // A number may have had earlier lines (cancelled, in quarantine): the payer's, live one wins.
  const best = new Map<string, LineFacts>();
  const rank = (r: (typeof rows)[number]) => Number(r.owned) * 2 + Number(r.live);
  for (const row of rows) {
    const held = best.get(row.msisdn);
    if (held && held.rank >= rank(row)) continue;
    best.set(row.msisdn, {
      id: row.id,
      userId: row.userId,
      holder: row.userId && row.userId !== payerId ? row.firstname : null,
      rank: rank(row),
    });
  }
  return best;
}

interface LineFacts {
  id: string;
  userId: string | null;
  holder: string | null;
  rank: number;
}

/**
 * Makes the customer's bill for `period` in `tx`, once: when a run for the customer and month
 * is recorded already, nothing is done (answered null). Otherwise the run is recorded, with the
 * bill when anything was charged. The bill takes the next number of the one unbroken sequence:
 * the counter's row lock is held until this transaction ends, so bills of two instances take
 * turns, and a rolled-back bill gives its number back.
 */
export async function issueBill(
  tx: Db,
  args: {
    userId: string;
    period: string;
    now: Date;
    /** A bill of the past written by the demo seed: no notification, no e-mail. */
    history?: boolean;
  },
): Promise<BillRow | null> {
  const { userId, period, now } = args;
  const claimed = await tx
    .insert(billRuns)
    .values({ userId, period, ranAt: now })
    .onConflictDoNothing()
    .returning({ userId: billRuns.userId });
  if (claimed.length === 0) return null;
  const [customer] = await tx
    .select({
      firstname: users.firstname,
      lastname: users.lastname,
      email: users.email,
      address: users.address,
      postCode: users.postCode,
      city: users.city,
      locale: users.locale,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!customer) return null;

  const paid = await paidItems(tx, userId, period);
  const monthPayment = await tx
    .select({ one: sql`1` })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.kind, 'subscription_payment'),
        eq(orders.billingPeriod, period),
        eq(orders.paymentStatus, 'paid'),
      ),
    )
    .limit(1);
  const drafts = [
    ...paid,
    ...(monthPayment.length > 0 ? [] : await owedItems(tx, userId, period)),
  ].filter((item) => item.oere !== 0);
  if (drafts.length === 0) return null;

  const lines = await linesOf(tx, userId, [
    ...new Set(drafts.map((d) => d.msisdn).filter((m): m is string => m !== null)),
  ]);
  // Sections: the payer's own numbers first, then the members', each in number order; within
  // a number, the plan first.
  const sectionRank = (msisdn: string | null) => {
    if (msisdn === null) return 2;
    return lines.get(msisdn)?.holder ? 1 : 0;
  };
  const sorted = drafts
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        sectionRank(a.d.msisdn) - sectionRank(b.d.msisdn) ||
        (a.d.msisdn ?? '').localeCompare(b.d.msisdn ?? '') ||
        KIND_ORDER[a.d.kind] - KIND_ORDER[b.d.kind] ||
        a.i - b.i,
    )
    .map(({ d }) => d);

  const splits = sorted.map((d) => splitVat(d.oere));
  const net = splits.reduce((sum, s) => sum + s.net, 0);
  const vat = splits.reduce((sum, s) => sum + s.vat, 0);
  const gross = net + vat;
  const paidOere = sorted.reduce((sum, d) => sum + (d.paidAt ? d.oere : 0), 0);

  const [counter] = await tx
    .update(billCounter)
    .set({ lastSerial: sql`${billCounter.lastSerial} + 1` })
    .where(eq(billCounter.id, 1))
    .returning({ serial: billCounter.lastSerial });
  if (!counter) throw new Error('bill_counter has no row');
  const serial = counter.serial;
  const address = [customer.address, [customer.postCode, customer.city].filter(Boolean).join(' ')]
    .filter((part) => part !== null && part !== undefined && part !== '')
    .join(', ');
  // The customer's number on bills: given at their first bill, the same ever after.
  await tx.insert(billCustomers).values({ userId }).onConflictDoNothing();
  const [numbered] = await tx
    .select({ customerNumber: billCustomers.customerNumber })
    .from(billCustomers)
    .where(eq(billCustomers.userId, userId));
  if (!numbered) throw new Error('bill customer number not written');
  const [bill] = await tx
    .insert(bills)
    .values({
      serial,
      number: billNumber(serial),
      payerUserId: userId,
      customerNumber: String(numbered.customerNumber),
      period,
      issuedAt: now,
      dueDate: billDueDate(now),
      locale: customer.locale,
      customerName: `${customer.firstname} ${customer.lastname}`.trim(),
      customerAddress: address === '' ? null : address,
      customerEmail: customer.email,
      vatRate: VAT_PERCENT,
      netOere: net,
      vatOere: vat,
      grossOere: gross,
      paidOere,
      paymentReference: paymentReference(serial),
      notifiedAt: args.history ? now : null,
    })
    .returning();
  if (!bill) throw new Error('bill not written');
  await tx.insert(billItems).values(
    sorted.map((d, position) => {
      const line = d.msisdn !== null ? lines.get(d.msisdn) : undefined;
      const split = splits[position] ?? splitVat(d.oere);
      return {
        billId: bill.id,
        position,
        msisdn: d.msisdn,
        lineId: line?.id ?? null,
        lineUserId: line?.userId ?? null,
        holder: line?.holder ?? null,
        kind: d.kind,
        descriptionFo: d.fo,
        descriptionEn: d.en,
        netOere: split.net,
        vatOere: split.vat,
        grossOere: d.oere,
        orderId: d.orderId,
        paidAt: d.paidAt,
        paymentMethod: d.method,
        cardBrand: d.cardBrand,
        cardLast4: d.cardLast4,
      };
    }),
  );
  await tx
    .update(billRuns)
    .set({ billId: bill.id })
    .where(and(eq(billRuns.userId, userId), eq(billRuns.period, period)));
  if (!args.history)
    await insertNotifications(tx, [
      {
        userId,
        type: 'payment',
        params: {
          outcome: 'bill',
          title: BILL_READY.title,
          body: BILL_READY.body(period, gross),
        },
        link: billPath(bill.id),
        createdAt: now,
      },
    ]);
  return bill;
}

/**
 * Customers who may have something to bill for `period`, after `after` (their id), in id
 * order, without a run for the month yet; locked for this transaction, skipping those another
 * instance holds. Who may: an owner of an account that is not talutíð, or anyone with a paid
 * order of the month (a purchase, the month's payment).
 */
export async function lockBillCandidates(
  tx: Db,
  period: string,
  after: string | null,
  limit: number,
  /** False: only look (counting those other instances hold), lock nothing. */
  lock = true,
): Promise<string[]> {
  const { start, next } = periodBounds(period);
  const query = tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        after === null ? undefined : sql`${users.id} > ${after}`,
        or(
          sql`exists (select 1 from ${accounts} where ${accounts.ownerUserId} = ${users.id} and ${accounts.type} <> 'prepaid' and (${accounts.status} <> 'cancelled' or ${accounts.statusChangedAt} >= ${start.toISOString()}::timestamptz) and ${accounts.createdAt} < ${next.toISOString()}::timestamptz)`,
          sql`exists (select 1 from ${receipts} where ${receipts.userId} = ${users.id} and ${receipts.issuedAt} >= ${start.toISOString()}::timestamptz and ${receipts.issuedAt} < ${next.toISOString()}::timestamptz)`,
        ),
        sql`not exists (select 1 from ${billRuns} where ${billRuns.userId} = ${users.id} and ${billRuns.period} = ${period})`,
      ),
    )
    .orderBy(users.id)
    .limit(limit);
  const rows = lock ? await query.for('no key update', { skipLocked: true }) : await query;
  return rows.map((r) => r.id);
}
