import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { billPath } from '@alda/contract/app-paths';
import { eq } from 'drizzle-orm';
import { formatMonth, todayInFaroe } from '@alda/contract/format/date';
import { formatKr } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import {
  billState,
  maskOtherParty,
  oldestItemisedPeriod,
  periodBounds,
  previousPeriod,
} from '@alda/contract/rules/bills';
import type {
  BillItem,
  BillPayment,
  BillPdfLinkResponse,
  BillResponse,
  BillSection,
  BillSummary,
  BillUsageItem,
  BillUsageQuery,
  BillUsageResponse,
  BillsResponse,
  EmailBillResponse,
} from '@alda/contract/schemas/bills';
import type { ResendBillResponse } from '@alda/contract/schemas/staff-bills';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { Db } from '../../db/client';
import { billPeriods, type BillItemRow, type BillRow } from '../../db/schema/bills';
import { users } from '../../db/schema/users';
import { AppError } from '../../errors';
import { escapeHtml } from '../../html';
import { isUuid } from '../../uuid';
import { recordAudit } from '../operator/audit';
import type { ReceiptLinkQuery, ReceiptLinks } from '../receipts/pdf-links';
import { issueBill, lockBillCandidates } from './issue';
import { billFilename, renderBillPdf, type BillPdfParties } from './pdf';
import {
  findBill,
  findBillsOfPayer,
  findBillsOfViewer,
  findLineUsage,
  leaseUnnotifiedBill,
  markNotified,
  type BillWithItems,
} from './repo';

/** How long an instance holds a bill's ready e-mail while it sends it. */
const EMAIL_LEASE_MS = 120_000;

/** How long a bill's PDF link works (as a receipt's, ADR 0054). */
export const BILL_LINK_TTL_S = 300;

/** The operator as its bills name it (settings BILL_ISSUER_*, BILL_BANK_ACCOUNT, BILL_IBAN). */
export type BillIssuer = BillPdfParties['issuer'];

export interface BillServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  email: EmailSender;
  issuer: BillIssuer;
  /** Signs the bills' short-lived PDF links (a key of their own). */
  links: ReceiptLinks;
  /** The web app's address: the new-bill e-mail links to the bill there. */
  appUrl: string;
  /** Customers billed per transaction. */
  batchSize?: number;
}

/** What one round of the month-end bills did. */
export interface BillRunResult {
  period: string;
  issued: number;
  /** Customers with nothing charged for the month (no bill). */
  empty: number;
  emailed: number;
}

/** Who is looking at a bill. */
type Viewer = { kind: 'customer'; userId: string } | { kind: 'staff' };

/**
 * The new-bill e-mail: the month, the amount and whether it is paid, and a link to the bill in
 * the app, where the PDF is. No attachment: rendering thousands of PDFs at a month end would
 * hold the instance's CPU for its requests, and a bill's itemised numbers belong behind the
 * sign-in rather than in a mailbox.
 */
const READY_MAIL = {
  fo: {
    subject: (period: string) => `Rokningin fyri ${formatMonth(period, 'fo')} er klár`,
    body: (name: string, bill: BillRow, link: string) =>
      `Hey ${name}\n\nRokningin ${bill.number} fyri ${formatMonth(bill.period, 'fo')} er klár: ${formatKr(bill.grossOere, 'fo')}. ${
        bill.paidOere >= bill.grossOere
          ? 'Hon er goldin.'
          : `Gjaldsdagur er ${bill.dueDate.split('-').reverse().join('.')}.`
      }\n\nTú sært hana og kanst taka hana niður sum PDF í appini: ${link}\n\nVinarliga helsan\nAlda`,
  },
  en: {
    subject: (period: string) => `Your bill for ${formatMonth(period, 'en')} is ready`,
    body: (name: string, bill: BillRow, link: string) =>
      `Hi ${name}\n\nYour bill ${bill.number} for ${formatMonth(bill.period, 'en')} is ready: ${formatKr(bill.grossOere, 'en')}. ${
        bill.paidOere >= bill.grossOere
          ? 'It is paid.'
          : `It is due on ${bill.dueDate.split('-').reverse().join('.')}.`
      }\n\nSee it and download it as a PDF in the app: ${link}\n\nKind regards\nAlda`,
  },
} as const;

const MAIL = {
  fo: {
    subject: (period: string) => `Rokningin fyri ${formatMonth(period, 'fo')} frá Alda`,
    body: (name: string, bill: BillRow) =>
      `Hey ${name}\n\nRokningin ${bill.number} fyri ${formatMonth(bill.period, 'fo')} er klár: ${formatKr(bill.grossOere, 'fo')}. ${
        bill.paidOere >= bill.grossOere
          ? 'Hon er goldin.'
          : `Gjaldsdagur er ${bill.dueDate.split('-').reverse().join('.')}.`
      } Hon er hjálagd sum PDF, og tú sært hana í appini undir Rokningar.\n\nVinarliga helsan\nAlda`,
  },
  en: {
    subject: (period: string) => `Your Alda bill for ${formatMonth(period, 'en')}`,
    body: (name: string, bill: BillRow) =>
      `Hi ${name}\n\nYour bill ${bill.number} for ${formatMonth(bill.period, 'en')} is ready: ${formatKr(bill.grossOere, 'en')}. ${
        bill.paidOere >= bill.grossOere
          ? 'It is paid.'
          : `It is due on ${bill.dueDate.split('-').reverse().join('.')}.`
      } It is attached as a PDF, and you can see it in the app under Bills.\n\nKind regards\nAlda`,
  },
} as const;

const sum = (items: readonly BillItemRow[], pick: (i: BillItemRow) => number) =>
  items.reduce((total, item) => total + pick(item), 0);

function paymentOf(item: BillItemRow): BillPayment | null {
  if (!item.paidAt || !item.paymentMethod) return null;
  return {
    method: item.paymentMethod,
    paidAt: item.paidAt.toISOString(),
    cardBrand: item.cardBrand,
    cardLast4: item.cardLast4,
  };
}

/**
 * The part of a bill a viewer sees: all of it for its payer and staff; for a family member,
 * the items of their own numbers only.
 */
function visibleItems(row: BillWithItems, viewer: Viewer): BillItemRow[] {
  if (viewer.kind === 'staff' || row.bill.payerUserId === viewer.userId) return row.items;
  return row.items.filter((item) => item.lineUserId === viewer.userId);
}

function summaryOf(
  row: BillWithItems,
  items: readonly BillItemRow[],
  viewer: Viewer,
  today: string,
): BillSummary {
  const payer = viewer.kind === 'staff' || row.bill.payerUserId === viewer.userId;
  const total = payer
    ? { net: row.bill.netOere, vat: row.bill.vatOere, gross: row.bill.grossOere }
    : {
        net: sum(items, (i) => i.netOere),
        vat: sum(items, (i) => i.vatOere),
        gross: sum(items, (i) => i.grossOere),
      };
  const paidOere = payer ? row.bill.paidOere : sum(items, (i) => (i.paidAt ? i.grossOere : 0));
  // The payment that paid most of it (the month's payment, as a rule), the later on a tie.
  const byOrder = new Map<string, { item: BillItemRow; oere: number }>();
  for (const item of items) {
    if (!item.paidAt) continue;
    const key = item.orderId ?? item.id;
    const seen = byOrder.get(key);
    byOrder.set(key, { item: seen?.item ?? item, oere: (seen?.oere ?? 0) + item.grossOere });
  }
  const latest = [...byOrder.values()].sort(
    (a, b) => b.oere - a.oere || (b.item.paidAt?.getTime() ?? 0) - (a.item.paidAt?.getTime() ?? 0),
  )[0]?.item;
  return {
    id: row.bill.id,
    number: row.bill.number,
    period: row.bill.period,
    issuedAt: row.bill.issuedAt.toISOString(),
    dueDate: row.bill.dueDate,
    total,
    paidOere,
    state: billState(total.gross, paidOere, row.bill.dueDate, today),
    payment: latest ? paymentOf(latest) : null,
    scope: payer ? 'payer' : 'member',
  };
}

function itemOf(item: BillItemRow, locale: Locale): BillItem {
  return {
    id: item.id,
    kind: item.kind,
    description: locale === 'en' ? item.descriptionEn : item.descriptionFo,
    price: { net: item.netOere, vat: item.vatOere, gross: item.grossOere },
    paid: item.paidAt !== null,
    payment: paymentOf(item),
  };
}

function sectionsOf(items: readonly BillItemRow[], viewer: Viewer, locale: Locale): BillSection[] {
  const sections: BillSection[] = [];
  const byNumber = new Map<string, BillSection>();
  for (const item of items) {
    // A charge on no number (rare: a receipt of one lump) is listed under the payer's first.
    const key = item.msisdn ?? items.find((i) => i.msisdn)?.msisdn ?? '000000';
    let section = byNumber.get(key);
    if (!section) {
      section = {
        phoneNumber: key,
        holder: item.holder,
        own: viewer.kind === 'customer' && item.lineUserId === viewer.userId,
        items: [],
        subtotal: { net: 0, vat: 0, gross: 0 },
      };
      byNumber.set(key, section);
      sections.push(section);
    }
    section.items.push(itemOf(item, locale));
    section.subtotal = {
      net: section.subtotal.net + item.netOere,
      vat: section.subtotal.vat + item.vatOere,
      gross: section.subtotal.gross + item.grossOere,
    };
  }
  return sections;
}

export function createBillService(deps: BillServiceDeps) {
  const { db, now, log, email, issuer, links, appUrl } = deps;
  const batchSize = deps.batchSize ?? 1;

  function toResponse(row: BillWithItems, viewer: Viewer, locale: Locale): BillResponse {
    const items = visibleItems(row, viewer);
    const summary = summaryOf(row, items, viewer, todayInFaroe(now()));
    const owed = summary.total.gross - summary.paidOere;
    return {
      ...summary,
      vatRate: row.bill.vatRate,
      sections: sectionsOf(items, viewer, locale),
      bankTransfer:
        owed > 0 && summary.scope === 'payer'
          ? {
              account: issuer.bankAccount,
              iban: issuer.iban,
              reference: row.bill.paymentReference,
              amountOere: owed,
              dueDate: row.bill.dueDate,
            }
          : null,
    };
  }

  /** A bill the customer may see (they pay it, or a number of theirs is on it); else 404. */
  async function visible(userId: string, id: string): Promise<BillWithItems> {
    const notFound = () => new AppError('NOT_FOUND', { field: 'id', detail: `no bill ${id}` });
    if (!isUuid(id)) throw notFound();
    const row = await findBill(db, id);
    if (!row) throw notFound();
    if (visibleItems(row, { kind: 'customer', userId }).length === 0) throw notFound();
    return row;
  }

  /** A bill the customer pays (the PDF and the e-mail are the payer's document). */
  async function payerOwn(userId: string, id: string): Promise<BillWithItems> {
    const row = await visible(userId, id);
    if (row.bill.payerUserId !== userId)
      throw new AppError('FORBIDDEN', { detail: 'the bill is the account owner’s' });
    return row;
  }

  async function pdfOf(row: BillWithItems, locale: Locale) {
    const content = await renderBillPdf(
      toResponse(row, { kind: 'staff' }, locale),
      {
        issuer,
        customer: {
          name: row.bill.customerName,
          address: row.bill.customerAddress,
          email: row.bill.customerEmail,
          customerNumber: row.bill.customerNumber,
        },
      },
      locale,
    );
    return { filename: billFilename(row.bill.number), content };
  }

  /** Sends the bill's PDF to `to`; BILL_EMAIL_FAILED (503) when it is refused. */
  async function mail(row: BillWithItems, to: string, name: string, locale: Locale) {
    const attachment = await pdfOf(row, locale);
    const text = MAIL[locale].body(name, row.bill);
    try {
      await email.send({
        to,
        subject: MAIL[locale].subject(row.bill.period),
        text,
        html: text
          .split('\n\n')
          .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
          .join(''),
        attachments: [{ ...attachment, contentType: 'application/pdf' }],
      });
    } catch (error) {
      throw new AppError('BILL_EMAIL_FAILED', { detail: 'e-mail not accepted', cause: error });
    }
  }

  /**
   * E-mails the customers of bills not told yet, each once it is sent (at least once: a crash
   * between the two sends it again when its lease runs out). Sent outside any transaction. A
   * bill whose customer is gone is marked told. A refused e-mail is left for the next round.
   */
  async function sendReadyEmails(signal?: AbortSignal): Promise<number> {
    let sent = 0;
    const failed = new Set<string>();
    for (;;) {
      if (signal?.aborted) return sent;
      // PGlite answers without giving the event loop a turn: let requests in between.
      await yieldToRequests();
      const bill = await leaseUnnotifiedBill(db, now(), EMAIL_LEASE_MS);
      if (!bill || failed.has(bill.id)) return sent;
      const row = await findBill(db, bill.id);
      const [customer] = bill.payerUserId
        ? await db
            .select({ email: users.email, firstname: users.firstname, locale: users.locale })
            .from(users)
            .where(eq(users.id, bill.payerUserId))
        : [];
      if (row && customer) {
        const link = new URL(billPath(bill.id), appUrl).toString();
        const text = READY_MAIL[customer.locale].body(customer.firstname, bill, link);
        try {
          await email.send({
            to: customer.email,
            subject: READY_MAIL[customer.locale].subject(bill.period),
            text,
            html: text
              .split('\n\n')
              .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
              .join(''),
          });
        } catch (error) {
          // Left leased: the next round (after the lease) tries again.
          failed.add(bill.id);
          log.warn({ err: error, bill: bill.number }, 'month end: bill e-mail not sent');
          continue;
        }
        sent += 1;
      }
      await markNotified(db, bill.id, now());
    }
  }

  /**
   * The month-end bills (ADR 0098): every customer with something charged for the month before
   * `at` gets one bill, in batches of customers locked with SKIP LOCKED (several instances may
   * run it at once; each customer is billed in one transaction with its run marker, so a crash
   * leaves nothing half-made and the next round carries on). Once a whole pass finds nobody
   * left, the month is marked complete and later rounds read only that mark.
   */
  async function runMonthEnd(at: Date = now(), signal?: AbortSignal): Promise<BillRunResult> {
    const period = previousPeriod(at);
    const result: BillRunResult = { period, issued: 0, empty: 0, emailed: 0 };
    const [complete] = await db
      .select({ period: billPeriods.period })
      .from(billPeriods)
      .where(eq(billPeriods.period, period));
    if (!complete) {
      let after: string | null = null;
      for (;;) {
        if (signal?.aborted) return result;
        await yieldToRequests();
        const batch: { last: string | null; size: number } = await db.transaction(async (tx) => {
          const ids = await lockBillCandidates(tx, period, after, batchSize);
          for (const userId of ids) {
            const bill = await issueBill(tx, { userId, period, now: now() });
            if (bill) result.issued += 1;
            else result.empty += 1;
          }
          return { last: ids.at(-1) ?? null, size: ids.length };
        });
        if (batch.size === 0) break;
        log.debug(
          { period, customers: batch.size, issued: result.issued },
          'month end: bill batch',
        );
        after = batch.last;
        if (batch.size < batchSize) break;
      }
      // Nobody left, counting those another instance holds now: the month is done.
      const left = await lockBillCandidates(db, period, null, 1, false);
      if (left.length === 0)
        await db.insert(billPeriods).values({ period, completedAt: now() }).onConflictDoNothing();
      if (result.issued > 0) log.info(result, 'month end: bills issued');
    }
    result.emailed = await sendReadyEmails(signal).catch((error: unknown) => {
      log.error({ err: error }, 'month end: bill e-mails failed; tried again next round');
      return 0;
    });
    return result;
  }

  return {
    runMonthEnd,
    sendReadyEmails,

    /** Issues one customer's bill for a month in `tx` (the demo seed and its copies). */
    issue: issueBill,

    async list(userId: string, _locale: Locale): Promise<BillsResponse> {
      const today = todayInFaroe(now());
      const rows = await findBillsOfViewer(db, userId);
      const viewer: Viewer = { kind: 'customer', userId };
      return {
        items: rows.map((row) => summaryOf(row, visibleItems(row, viewer), viewer, today)),
      };
    },

    async get(userId: string, id: string, locale: Locale): Promise<BillResponse> {
      return toResponse(await visible(userId, id), { kind: 'customer', userId }, locale);
    },

    /**
     * A number's use in the bill's month. The other party's number is masked unless full
     * numbers are asked for on the caller's own number; a member's number on the owner's bill is
     * always masked for the owner.
     */
    async usage(userId: string, id: string, query: BillUsageQuery): Promise<BillUsageResponse> {
      const row = await visible(userId, id);
      const items = visibleItems(row, { kind: 'customer', userId }).filter(
        (i) => i.msisdn === query.phoneNumber,
      );
      if (items.length === 0)
        throw new AppError('NOT_FOUND', {
          field: 'phoneNumber',
          detail: 'no such number on the bill',
        });
      const own = items.some((i) => i.lineUserId === userId);
      const fullNumbers = own && query.fullNumbers === 'true';
      const base = { page: query.page, perPage: query.perPage, fullNumbers };
      const { start, next } = periodBounds(row.bill.period);
      const oldest = periodBounds(oldestItemisedPeriod(now())).start;
      const lineId = items.find((i) => i.lineId)?.lineId ?? null;
      if (start < oldest || lineId === null)
        return { ...base, items: [], total: 0, expired: start < oldest };
      const found = await findLineUsage(db, {
        lineId,
        start,
        next,
        type: query.type,
        offset: (query.page - 1) * query.perPage,
        limit: query.perPage,
      });
      return {
        ...base,
        total: found.total,
        expired: false,
        items: found.items.map((r): BillUsageItem => ({
          occurredAt: r.occurredAt.toISOString(),
          type: (['voice', 'sms', 'data'] as const).find((t) => t === r.usageType) ?? 'other',
          otherParty: r.otherParty === null ? null : maskOtherParty(r.otherParty, fullNumbers),
          quantity: r.quantity,
          unit: r.unit,
          zone: r.zone,
          chargeOere: r.chargeOere,
          included: r.chargeOere === 0,
        })),
      };
    },

    async pdf(userId: string, id: string, locale: Locale) {
      return pdfOf(await payerOwn(userId, id), locale);
    },

    async pdfLink(userId: string, id: string, locale: Locale): Promise<BillPdfLinkResponse> {
      const row = await payerOwn(userId, id);
      const expiresAt = now().getTime() + BILL_LINK_TTL_S * 1000;
      const query = links.issue({ receiptId: row.bill.id, userId, locale, expiresAt });
      const search = new URLSearchParams({
        lang: query.lang,
        expires: String(query.expires),
        signature: query.signature,
      });
      return {
        path: `/bill-files/${row.bill.id}?${search.toString()}`,
        expiresAt: new Date(expiresAt).toISOString(),
      };
    },

    async pdfByLink(id: string, query: ReceiptLinkQuery) {
      const dead = () => new AppError('NOT_FOUND', { detail: 'bill link invalid or expired' });
      if (!isUuid(id)) throw dead();
      const row = await findBill(db, id);
      if (!row?.bill.payerUserId) throw dead();
      const locale = links.verify(
        { receiptId: row.bill.id, userId: row.bill.payerUserId },
        query,
        now(),
      );
      if (!locale) throw dead();
      return pdfOf(row, locale);
    },

    /** Sends the bill's PDF to the customer's e-mail address as it is now. */
    async email(userId: string, id: string, locale: Locale): Promise<EmailBillResponse> {
      const row = await payerOwn(userId, id);
      const [customer] = await db
        .select({ email: users.email, firstname: users.firstname })
        .from(users)
        .where(eq(users.id, userId));
      if (!customer) throw new AppError('NOT_FOUND', { detail: 'customer vanished' });
      await mail(row, customer.email, customer.firstname, locale);
      return { ok: true, sentTo: customer.email };
    },

    // The staff console (the routes check the role and the customer's access grant).

    async listForStaff(customerId: string): Promise<BillsResponse> {
      const today = todayInFaroe(now());
      const rows = await findBillsOfPayer(db, customerId);
      return {
        items: rows.map((row) => summaryOf(row, row.items, { kind: 'staff' }, today)),
      };
    },

    /** A bill as staff see it, with its payer (for the access grant); null when none. */
    async getForStaff(
      id: string,
      locale: Locale,
    ): Promise<{ payerUserId: string | null; bill: BillResponse } | null> {
      if (!isUuid(id)) return null;
      const row = await findBill(db, id);
      if (!row) return null;
      return {
        payerUserId: row.bill.payerUserId,
        bill: toResponse(row, { kind: 'staff' }, locale),
      };
    },

    /**
     * Sends the bill to its customer's e-mail again, in their language, with the audit entry
     * `bill.resend` (kind change) recorded once it is sent. NOT_FOUND for a bill whose customer
     * is gone.
     */
    async resend(
      id: string,
      reason: string,
      staff: { actor: string; id: string },
    ): Promise<ResendBillResponse> {
      const row = isUuid(id) ? await findBill(db, id) : null;
      if (!row?.bill.payerUserId)
        throw new AppError('NOT_FOUND', { field: 'id', detail: `no bill ${id} with a customer` });
      const [customer] = await db
        .select({ email: users.email, firstname: users.firstname, locale: users.locale })
        .from(users)
        .where(eq(users.id, row.bill.payerUserId));
      if (!customer) throw new AppError('NOT_FOUND', { detail: 'customer vanished' });
      await mail(row, customer.email, customer.firstname, customer.locale);
      await recordAudit(db, {
        actor: staff.actor,
        staffUserId: staff.id,
        kind: 'change',
        action: 'bill.resend',
        targetType: 'bill',
        targetId: row.bill.id,
        reason,
        details: { number: row.bill.number, customerId: row.bill.payerUserId },
        at: now(),
      });
      return { ok: true, sentTo: customer.email };
    },
  };
}

export type BillService = ReturnType<typeof createBillService>;
