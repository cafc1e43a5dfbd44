import type {
  StaffPaymentDetail,
  StaffPaymentRow,
  StaffPaymentsPage,
  StaffPaymentsQuery,
  StaffProviderCheck,
  StaffRefund,
  StaffRefundRequest,
} from '@alda/contract/schemas/staff-payments';
import type { Db } from '../../db/client';
import { keysetPage } from '../../db/keyset';
import type { PaymentRefundRow } from '../../db/schema/payments';
import { AppError } from '../../errors';
import type { StaffCaller } from '../../plugins/staff-auth';
import { hasEntryInSession, recordAudit } from '../operator/audit';
import { refundableOere, type PaymentService, type ProviderCheck } from '../payments/service';
import {
  eventsOfPayment,
  findPaymentRecord,
  listPayments,
  receiptOfPayment,
  refundsOfPayment,
  type StaffPaymentRecord,
} from './payments-repo';

/*
 * The staff console's payments area (issue 31, docs/decisions/0075-staff-console.md): recent
 * payments and search, one payment with the provider's events, its view now and the
 * reconciliation verdict, and refunds.
 *
 * Who may refund: `support` (and `admin`). A refund is money, but it is customer service's daily
 * work (a double charge, a package that never arrived), and the risk is bounded by the rules of
 * the payments service: only a paid payment, never more in all than was paid (checked under the
 * payment's row lock), a reason required, the staff member named in the refund and in the audit
 * log, in the transaction that writes the refund. The money leaves by the refund job only.
 *
 * Reads of personal data are audited (`kind: 'read'`) once per staff session and thing: opening
 * a payment (`payment.view`) and a search with `q` (`payment.search`, the search text as target,
 * so the log answers "who looked up this number?"). The plain list of recent payments is not.
 */

export interface StaffPaymentsServiceDeps {
  db: Db;
  now: () => Date;
  payments: Pick<PaymentService, 'requestRefund' | 'checkWithProvider'>;
}

const iso = (date: Date) => date.toISOString();

function rowDto(record: StaffPaymentRecord): StaffPaymentRow {
  return {
    id: record.id,
    orderId: record.orderId,
    createdAt: iso(record.createdAt),
    customer: { id: record.userId, name: `${record.firstname} ${record.lastname}`.trim() },
    amountOere: record.amountOere,
    currency: 'DKK',
    method: record.method,
    state: record.state,
    card:
      record.cardBrand || record.cardLast4
        ? { brand: record.cardBrand, last4: record.cardLast4 }
        : null,
    refundedOere: Number(record.refundedOere),
    refundingOere: Number(record.refundingOere),
  };
}

export function refundDto(row: PaymentRefundRow): StaffRefund {
  return {
    id: row.id,
    amountOere: row.amountOere,
    state: row.state,
    requestedBy: row.requestedBy,
    reason: row.reason,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: iso(row.createdAt),
    refundedAt: row.refundedAt ? iso(row.refundedAt) : null,
  };
}

function providerCheckDto(check: ProviderCheck): StaffProviderCheck {
  switch (check.status) {
    case 'unreachable':
      return { status: 'unreachable' };
    case 'not_sent':
      return { status: 'not_sent', reconciliation: check.reconciliation };
    case 'known':
      return {
        status: 'known',
        view: check.view
          ? {
              state: check.view.state,
              card: check.view.card ?? null,
              failureReason: check.view.failureReason ?? null,
            }
          : null,
        reconciliation: check.reconciliation,
      };
  }
}

export function createStaffPaymentsService(deps: StaffPaymentsServiceDeps) {
  const { db, now, payments } = deps;

  /** A read of personal data, recorded once per staff session and target. */
  async function auditRead(
    who: StaffCaller,
    entry: { action: string; targetType: string; target: string; details?: object },
  ): Promise<void> {
    const seen = await hasEntryInSession(db, {
      action: entry.action,
      target: entry.target,
      staffUserId: who.id,
      sessionId: who.sessionId,
    });
    if (seen) return;
    await recordAudit(db, {
      actor: who.actor,
      staffUserId: who.id,
      kind: 'read',
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.target,
      details: { ...entry.details, sessionId: who.sessionId },
      at: now(),
    });
  }

  return {
    async list(query: StaffPaymentsQuery, who: StaffCaller): Promise<StaffPaymentsPage> {
      const q = query.q?.trim() || undefined;
      // One row more than the page: whether there is an older page (the audit log's paging).
      const rows = await listPayments(db, {
        q,
        state: query.state,
        before: query.before,
        limit: query.limit + 1,
      });
      if (q) {
        await auditRead(who, { action: 'payment.search', targetType: 'search', target: q });
      }
      const { page, nextBefore } = keysetPage(rows, query.limit, (row) => row.id);
      return { items: page.map(rowDto), nextBefore };
    },

    async detail(id: string, who: StaffCaller): Promise<StaffPaymentDetail> {
      const record = await findPaymentRecord(db, id);
      if (!record) throw new AppError('NOT_FOUND', { detail: `payment ${id}` });
      const [events, refunds, receipt, check] = await Promise.all([
        eventsOfPayment(db, id),
        refundsOfPayment(db, id),
        receiptOfPayment(db, id),
        payments.checkWithProvider(record),
      ]);
      await auditRead(who, {
        action: 'payment.view',
        targetType: 'payment',
        target: id,
        details: { customerId: record.userId },
      });
      const row = rowDto(record);
      const committed = row.refundedOere + row.refundingOere;
      return {
        ...row,
        updatedAt: iso(record.updatedAt),
        provider: record.provider,
        providerPaymentId: record.providerPaymentId,
        failureReason: record.failureReason,
        order: { id: record.orderId, kind: record.orderKind },
        events: events.map((event) => ({
          eventId: event.eventId,
          type: event.type,
          receivedAt: iso(event.receivedAt),
        })),
        providerCheck: providerCheckDto(check),
        refunds: refunds.map(refundDto),
        receipt: receipt
          ? {
              id: receipt.id,
              number: receipt.number,
              issuedAt: iso(receipt.issuedAt),
              grossOere: receipt.grossOere,
            }
          : null,
        refundableOere: refundableOere(record, committed),
      };
    },

    /** A full or partial refund, by the payments service's rule (ADR 0075). */
    async refund(id: string, body: StaffRefundRequest, who: StaffCaller): Promise<StaffRefund> {
      const refund = await payments.requestRefund({
        paymentId: id,
        amountOere: body.amountOere,
        reason: body.reason,
        by: { actor: who.actor, staffUserId: who.id },
      });
      return refundDto(refund);
    },
  };
}

export type StaffPaymentsService = ReturnType<typeof createStaffPaymentsService>;
