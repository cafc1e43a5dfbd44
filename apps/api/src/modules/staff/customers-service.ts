import { RESET_PASSWORD_PATH } from '@alda/contract/app-paths';
import type { Locale } from '@alda/contract/locale';
import { normalizeIccid } from '@alda/contract/rules/iccid';
import { normalizeEmail } from '@alda/contract/rules/email';
import { lockStateOf, type LockColumns } from '@alda/contract/rules/number-protection';
import { fromWireNumber, toWireNumber } from '@alda/contract/rules/phone';
import type { Order } from '@alda/contract/schemas/orders';
import {
  STAFF_CUSTOMER_SEARCH_LIMIT,
  STAFF_PORT_OUT_ATTEMPTS_SHOWN,
  type StaffCustomerAccess,
  type StaffCustomerFamily,
  type StaffCustomerLine,
  type StaffCustomerMatch,
  type StaffCustomerMessage,
  type StaffCustomerOrder,
  type StaffCustomerSearchResult,
  type StaffCustomerView,
  type StaffMessageKind,
  type StaffOrderProvisioning,
  type StaffResendResult,
  type StaffSignOutEverywhereResult,
} from '@alda/contract/schemas/staff-customers';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { SmsSender } from '../../adapters/sms/sms-sender';
import type { Db } from '../../db/client';
import { isPrepaidLine, planIdOfLine } from '../../db/line-facts';
import type { OutboxMessageRow } from '../../db/schema/outbox';
import type { UserRow } from '../../db/schema/users';
import { AppError } from '../../errors';
import { escapeHtml } from '../../html';
import type { StaffCaller } from '../../plugins/staff-auth';
import { isUuid } from '../../uuid';
import { createActionService } from '../actions/service';
import { endAllSessionsOfCustomer } from '../auth/revocation-service';
import { createNotificationService } from '../notifications/service';
import { hasEntryInSession, recordAudit } from '../operator/audit';
import { localized } from '../plans/dto';
import { findPlansByIds } from '../plans/catalogue';
import { toOrderDtos } from '../provisioning/dto';
import type { ProvisioningService } from '../provisioning/service';
import type { ReceiptService } from '../receipts/service';
import { findLinesOfAccounts, findLiveFamilyAccountOf } from '../subscriptions/accounts';
import { findUserById, findUsersByIds } from '../users/records';
import {
  customerOfOrder,
  customersByEmail,
  customersByIccid,
  customersByName,
  customersByPhone,
  customersByPhonePrefix,
  findAccount,
  findLinesOfCustomer,
  findOrdersOfCustomer,
  findOutboxMessage,
  findOutboxMessagesTo,
  findPaymentsOfCustomer,
  findPortOutAttemptsOfLines,
  findRefundsOfPayments,
  findSessionsOfCustomer,
  liveNumbersOf,
  VIEW_LIMIT,
  type LineWithAccount,
} from './customers-repo';

/*
 * The customers area of the staff console (issue 31, docs/decisions/0075-staff-console.md).
 *
 * - Search is not an opening of personal data (it answers name, e-mail and numbers only), but
 *   every search is recorded (`customer.search`, kind read, the query in `details`).
 * - Opening a customer asks for a reason: `customer.open` (kind read) with the staff session in
 *   `details.sessionId`. That entry IS the grant: the view answers only while the staff member's
 *   current session has one for the customer, so a refresh is not recorded again, and every new
 *   session must give a reason again.
 * - The view is read through the services the customer's own screens use (orders with their
 *   provisioning, receipts, notifications, the activity log), in the staff member's language.
 * - Support actions go through the owning module's rules: ending sessions is the auth module's
 *   revocation (with its NOTIFY), in one transaction with the audit entry; a message is sent
 *   again only when the platform truly can (see {@link classifyMessage}).
 */

export interface StaffCustomersServiceDeps {
  db: Db;
  now: () => Date;
  provisioning: Pick<ProvisioningService, 'describe'>;
  receipts: Pick<ReceiptService, 'list' | 'email'>;
  messaging: { sms: Pick<SmsSender, 'kind'>; email: Pick<EmailSender, 'kind' | 'send'> };
}

/**
 * A name folded for search: lower case, Faroese and other accented letters as plain ASCII
 * ("Guðrun" → "gudrun", "Óli" → "oli", "Ærge" → "aerge"). The SQL side is in customers-repo.ts.
 */
export function foldName(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ð/g, 'd')
    .replace(/ø/g, 'o')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** What a search text is, and the customers it finds (in order), each with what matched. */
type Found = Array<{ id: string; on: StaffCustomerMatch }>;

const RECEIPT_SUBJECT = /^(?:Kvittan|Receipt) (\S+) (?:frá|from) Alda$/;
/** How the outbox writes a file it did not keep: `[name.pdf, application/pdf, 1234 bytes]`. */
const ATTACHMENT_NOTE = /^\[[^\]\n]+, [^\]\n]+, \d+ bytes\]$/m;

/**
 * Whether a kept message can be sent again, and how:
 * - SMS are one-time codes (phone sign-in, confirming a sign-out): single use, short-lived;
 * - a password-reset e-mail holds a link that works once, for an hour;
 * - a receipt e-mail is sent anew by the receipts service (the outbox did not keep the PDF);
 * - another e-mail with a file the outbox did not keep cannot be sent as it was;
 * - any other e-mail is sent again as it was, to the address it went to.
 */
export function classifyMessage(
  row: Pick<OutboxMessageRow, 'channel' | 'subject' | 'text'>,
  receiptIdByNumber: ReadonlyMap<string, string>,
): { kind: StaffMessageKind; receiptId: string | null } {
  if (row.channel === 'sms') return { kind: 'one_time_code', receiptId: null };
  if (row.text.includes(`${RESET_PASSWORD_PATH}?token=`))
    return { kind: 'password_reset', receiptId: null };
  const number = RECEIPT_SUBJECT.exec(row.subject ?? '')?.[1];
  const receiptId = number ? receiptIdByNumber.get(number) : undefined;
  if (receiptId) return { kind: 'receipt', receiptId };
  if (ATTACHMENT_NOTE.test(row.text)) return { kind: 'attachment', receiptId: null };
  return { kind: 'message', receiptId: null };
}

const RESENDABLE: ReadonlySet<StaffMessageKind> = new Set(['receipt', 'message']);

/** A line's lock for staff: its state at `at` and, while unlocking, when it opens. */
function lockOf(columns: LockColumns, at: Date): StaffCustomerLine['lock'] {
  const lock = lockStateOf(columns, at);
  return {
    state: lock.state,
    unlockAt: lock.state === 'unlocking' ? lock.unlockAt.toISOString() : null,
  };
}

function fullName(user: Pick<UserRow, 'firstname' | 'lastname'>): string {
  return `${user.firstname} ${user.lastname}`.trim();
}

export function createStaffCustomersService(deps: StaffCustomersServiceDeps) {
  const { db, now, provisioning, receipts, messaging } = deps;
  const actions = createActionService({ db });
  const notifications = createNotificationService({ db, now });

  /** The customers `q` finds, strongest key first (a number, an id, an ICCID, then names). */
  async function find(q: string): Promise<Found> {
    const found: Found = [];
    const add = (ids: readonly string[], on: StaffCustomerMatch) => {
      for (const id of ids) if (!found.some((f) => f.id === id)) found.push({ id, on });
    };
    const compact = q.replace(/[\s\-()]/g, '');
    if (isUuid(q)) {
      const placedBy = await customerOfOrder(db, q);
      if (placedBy) add([placedBy], 'order');
      if (await findUserById(db, q)) add([q], 'customer');
      return found;
    }
    if (/^\+?\d+$/.test(compact)) {
      const phone = fromWireNumber(compact.replace(/^\+/, ''));
      if (phone) add(await customersByPhone(db, phone), 'phone');
      else if (compact.length >= 10)
        add(await customersByIccid(db, normalizeIccid(compact)), 'iccid');
      else if (compact.length <= 5) add(await customersByPhonePrefix(db, compact), 'phone');
      return found;
    }
    if (q.includes('@')) {
      add(await customersByEmail(db, normalizeEmail(q)), 'email');
      return found;
    }
    const words = foldName(q).split(/\s+/).filter(Boolean);
    add(await customersByName(db, words), 'name');
    // One word may also be the start of an address ("gudrun" of gudrun@…).
    if (words.length === 1) add(await customersByEmail(db, q.toLowerCase()), 'email');
    return found;
  }

  async function customerOr404(id: string): Promise<UserRow> {
    const user = isUuid(id) ? await findUserById(db, id) : undefined;
    if (!user) throw new AppError('NOT_FOUND', { field: 'id', detail: `no customer ${id}` });
    return user;
  }

  /** The receipt ids of the customer's newest receipts, by number. */
  async function receiptNumbers(userId: string, locale: Locale) {
    const list = await receipts.list(userId, 0, VIEW_LIMIT, locale);
    return { list, byNumber: new Map(list.items.map((r) => [r.number, r.id])) };
  }

  /** Where the customer's SMS and e-mail go: the address, the sign-in number, numbers in use. */
  function recipientsOf(user: UserRow, lines: readonly LineWithAccount[]): string[] {
    const numbers = new Set<string>();
    if (user.phoneNumber) numbers.add(user.phoneNumber);
    for (const { line } of lines)
      if (line.userId === user.id && line.status !== 'cancelled') numbers.add(line.msisdn);
    return [normalizeEmail(user.email), ...[...numbers].map((n) => toWireNumber(n))];
  }

  /** The lines, each with its lock as it stands `at` and its latest port-out attempts. */
  async function linesOf(
    user: UserRow,
    rows: readonly LineWithAccount[],
    locale: Locale,
    at: Date,
  ): Promise<StaffCustomerLine[]> {
    const attempts = await findPortOutAttemptsOfLines(
      db,
      rows.map(({ line }) => line),
      STAFF_PORT_OUT_ATTEMPTS_SHOWN,
    );
    const planIds = rows.flatMap(({ line, account }) => {
      const id = planIdOfLine(line, account ?? { planId: null });
      return id ? [id] : [];
    });
    const plans = new Map((await findPlansByIds(db, planIds)).map((p) => [p.plan.id, p.plan]));
    const others = await findUsersByIds(
      db,
      rows.flatMap(({ line }) => (line.userId && line.userId !== user.id ? [line.userId] : [])),
    );
    const names = new Map([
      [user.id, fullName(user)],
      ...others.map((u) => [u.id, fullName(u)] as const),
    ]);
    return rows.map(({ line, account }) => {
      const planId = planIdOfLine(line, account ?? { planId: null });
      const plan = planId ? plans.get(planId) : undefined;
      const holder = [line.holderFirstname, line.holderLastname].filter(Boolean).join(' ');
      return {
        id: line.id,
        msisdn: line.msisdn,
        status: line.status,
        planId,
        planName: plan ? localized(plan, locale) : null,
        simType: line.simType,
        iccid: line.iccid,
        esimInstalled: line.esimInstalled,
        prepaid: isPrepaidLine(line, account ?? { type: '' }),
        familyRole:
          account?.type === 'family_plan'
            ? account.ownerUserId === user.id
              ? 'owner'
              : 'member'
            : 'none',
        userName: line.userId ? (names.get(line.userId) ?? null) : holder || null,
        usedByCustomer: line.userId === user.id,
        dataPaused: line.dataPausedAt !== null,
        createdAt: line.createdAt.toISOString(),
        activatedAt: line.activatedAt?.toISOString() ?? null,
        expiresAt: line.expiresAt?.toISOString() ?? null,
        lock: lockOf(line, at),
        simChangedAt: line.simChangedAt?.toISOString() ?? null,
        portOutAttempts: attempts
          .filter((a) => a.lineId === line.id)
          .map((a) => ({
            at: a.createdAt.toISOString(),
            provider: a.provider,
            outcome: a.outcome,
            reason: a.reason,
          })),
      };
    });
  }

  /** The family account the customer owns, else the one a line they use is on. */
  async function familyOf(
    user: UserRow,
    rows: readonly LineWithAccount[],
    locale: Locale,
  ): Promise<StaffCustomerFamily | null> {
    let account = await findLiveFamilyAccountOf(db, user.id);
    if (!account) {
      const memberOf = rows.find(
        ({ line, account: a }) =>
          line.userId === user.id &&
          line.status !== 'cancelled' &&
          a?.type === 'family_plan' &&
          a.status !== 'cancelled',
      )?.account;
      account = memberOf ? await findAccount(db, memberOf.id) : undefined;
    }
    if (!account) return null;
    const members = await findLinesOfAccounts(db, [account.id]);
    const people = await findUsersByIds(db, [
      account.ownerUserId,
      ...members.flatMap((m) => (m.userId ? [m.userId] : [])),
    ]);
    const byId = new Map(people.map((p) => [p.id, p]));
    const owner = byId.get(account.ownerUserId);
    const [plan] = account.planId ? await findPlansByIds(db, [account.planId]) : [];
    return {
      accountId: account.id,
      status: account.status,
      planName: plan ? localized(plan.plan, locale) : null,
      customerRole: account.ownerUserId === user.id ? 'owner' : 'member',
      owner: {
        id: account.ownerUserId,
        name: owner ? fullName(owner) : '',
        email: owner?.email ?? '',
      },
      members: members.map((m) => {
        const person = m.userId ? byId.get(m.userId) : undefined;
        const holder = [m.holderFirstname, m.holderLastname].filter(Boolean).join(' ');
        return {
          lineId: m.id,
          msisdn: m.msisdn,
          name: person ? fullName(person) : holder || null,
          userId: m.userId,
          status: m.status,
          isOwner: m.userId === account.ownerUserId,
        };
      }),
    };
  }

  /** An order's provisioning for staff: the customer's view of it plus who did each step. */
  async function provisioningOf(order: Order): Promise<StaffOrderProvisioning | null> {
    const seen = order.provisioning;
    if (!seen) return null;
    const described = await provisioning.describe(order.id);
    const steps = described.steps.map((step, i) => ({
      step: step.step,
      at: step.at.toISOString(),
      actor: step.actor,
      reason: seen.steps[i]?.reason ?? step.reasonText ?? step.reasonCode,
    }));
    const rejection = steps.findLast((s) => s.step === 'port_rejected');
    return {
      steps,
      upcoming: seen.upcoming,
      waitingFor: seen.waitingFor,
      expectedAt: seen.expectedAt,
      delivery: seen.delivery,
      isPorting: seen.isPorting,
      portDate: seen.portDate,
      porting: seen.isPorting
        ? {
            simcardNumber: described.portingSimcardNumber,
            rejection: rejection ? { at: rejection.at, reason: rejection.reason } : null,
            correction: rejection
              ? seen.waitingFor === 'customer_correction'
                ? 'waiting'
                : 'corrected'
              : null,
          }
        : null,
    };
  }

  async function ordersOf(
    user: UserRow,
    rows: readonly LineWithAccount[],
    locale: Locale,
  ): Promise<StaffCustomerOrder[]> {
    const used = rows.filter(({ line }) => line.userId === user.id).map(({ line }) => line.id);
    const orderRows = await findOrdersOfCustomer(db, user.id, used);
    const dtos = await toOrderDtos(db, orderRows, locale);
    const plans = new Map(
      (
        await findPlansByIds(
          db,
          orderRows.flatMap((o) => (o.planId ? [o.planId] : [])),
        )
      ).map((p) => [p.plan.id, p.plan]),
    );
    return Promise.all(
      orderRows.map(async (row, i) => {
        const dto = dtos[i];
        const plan = row.planId ? plans.get(row.planId) : undefined;
        return {
          id: row.id,
          kind: row.kind,
          lifecycleAction: row.lifecycleAction,
          msisdn: row.msisdn,
          planName: plan ? localized(plan, locale) : null,
          priceOere: row.priceOere,
          paymentStatus: row.paymentStatus,
          isComplete: row.isComplete,
          isCancelled: row.isCancelled,
          createdAt: row.createdAt.toISOString(),
          completedAt: row.completedAt?.toISOString() ?? null,
          placedByCustomer: row.userId === user.id,
          provisioning: dto ? await provisioningOf(dto) : null,
        };
      }),
    );
  }

  async function paymentsOf(userId: string) {
    const rows = await findPaymentsOfCustomer(db, userId);
    const refunds = await findRefundsOfPayments(
      db,
      rows.map((r) => r.payment.id),
    );
    return rows.map(({ payment, orderKind }) => ({
      id: payment.id,
      orderId: payment.orderId,
      orderKind,
      amountOere: payment.amountOere,
      method: payment.method,
      state: payment.state,
      card:
        payment.cardBrand || payment.cardLast4
          ? { brand: payment.cardBrand, last4: payment.cardLast4 }
          : null,
      failureReason: payment.failureReason,
      createdAt: payment.createdAt.toISOString(),
      refunds: refunds
        .filter((r) => r.paymentId === payment.id)
        .map((r) => ({
          id: r.id,
          amountOere: r.amountOere,
          state: r.state,
          requestedBy: r.requestedBy,
          reason: r.reason,
          createdAt: r.createdAt.toISOString(),
          refundedAt: r.refundedAt?.toISOString() ?? null,
        })),
    }));
  }

  function messageDto(
    row: OutboxMessageRow,
    byNumber: ReadonlyMap<string, string>,
  ): StaffCustomerMessage {
    const { kind } = classifyMessage(row, byNumber);
    const secret = kind === 'one_time_code' || kind === 'password_reset';
    return {
      id: row.id,
      channel: row.channel,
      to: row.recipient,
      subject: row.subject,
      text: secret ? null : row.text,
      kind,
      resendable: RESENDABLE.has(kind),
      createdAt: row.createdAt.toISOString(),
      delivery: { state: row.state, error: row.error, at: row.stateAt.toISOString() },
    };
  }

  return {
    /** GET /api/staff/customers?q= — recorded as `customer.search` (kind read). */
    async search(q: string, staff: StaffCaller): Promise<StaffCustomerSearchResult> {
      const found = await find(q.trim());
      const shown = found.slice(0, STAFF_CUSTOMER_SEARCH_LIMIT);
      const people = new Map(
        (
          await findUsersByIds(
            db,
            shown.map((f) => f.id),
          )
        ).map((u) => [u.id, u]),
      );
      const numbers = await liveNumbersOf(
        db,
        shown.map((f) => f.id),
      );
      const items = shown.flatMap(({ id, on }) => {
        const user = people.get(id);
        if (!user) return [];
        return [
          {
            id,
            name: fullName(user),
            email: user.email,
            numbers: numbers.get(id) ?? [],
            matchedOn: on,
          },
        ];
      });
      await recordAudit(db, {
        actor: staff.actor,
        staffUserId: staff.id,
        kind: 'read',
        action: 'customer.search',
        targetType: 'customer',
        details: { q: q.trim(), results: found.length },
        at: now(),
      });
      return { items, truncated: found.length > STAFF_CUSTOMER_SEARCH_LIMIT };
    },

    /**
     * POST /api/staff/customers/:id/access — opens the customer's personal data for this staff
     * session, with the reason recorded (`customer.open`, kind read).
     */
    async open(id: string, reason: string, staff: StaffCaller): Promise<StaffCustomerAccess> {
      const user = await customerOr404(id);
      const at = now();
      const entry = await recordAudit(db, {
        actor: staff.actor,
        staffUserId: staff.id,
        kind: 'read',
        action: 'customer.open',
        targetType: 'customer',
        targetId: user.id,
        reason,
        details: { sessionId: staff.sessionId },
        at,
      });
      return { customerId: user.id, auditId: entry.id, openedAt: at.toISOString() };
    },

    /** Whether this staff session has opened the customer (gave a reason). */
    granted(id: string, staff: StaffCaller): Promise<boolean> {
      return hasEntryInSession(db, {
        action: 'customer.open',
        target: id,
        staffUserId: staff.id,
        sessionId: staff.sessionId,
      });
    },

    /** GET /api/staff/customers/:id — the whole view; the caller checks {@link granted} first. */
    async view(id: string, locale: Locale): Promise<StaffCustomerView> {
      const user = await customerOr404(id);
      const lineRows = await findLinesOfCustomer(db, user.id);
      const at = now();
      const [lines, family, orders, payments, receiptList, notes, outbox, sessionRows, log] =
        await Promise.all([
          linesOf(user, lineRows, locale, at),
          familyOf(user, lineRows, locale),
          ordersOf(user, lineRows, locale),
          paymentsOf(user.id),
          receiptNumbers(user.id, locale),
          notifications.list(user.id, { page: 0, perPage: VIEW_LIMIT }, locale),
          findOutboxMessagesTo(db, recipientsOf(user, lineRows)),
          findSessionsOfCustomer(db, user.id),
          actions.list(user.id, locale),
        ]);
      return {
        profile: {
          id: user.id,
          firstname: user.firstname,
          lastname: user.lastname,
          email: user.email,
          phoneNumber: user.phoneNumber,
          address: user.address,
          postCode: user.postCode,
          city: user.city,
          locale: user.locale,
          hasPassword: user.passwordHash !== null,
          createdAt: user.createdAt.toISOString(),
        },
        lines,
        family,
        orders,
        payments,
        receipts: receiptList.list.items.map((r) => ({
          id: r.id,
          number: r.number,
          grossOere: r.total.gross,
          issuedAt: r.issuedAt,
          orderKind: r.orderKind,
        })),
        notifications: notes.items.map((n) => ({
          id: n.id,
          type: n.type,
          title: n.title,
          body: n.body,
          createdAt: n.createdAt,
          readAt: n.readAt,
        })),
        messages: {
          kept: {
            // The SMPP adapter's queue is the outbox table: its SMS are listed with their state.
            sms: messaging.sms.kind === 'outbox' || messaging.sms.kind === 'smpp',
            email: messaging.email.kind === 'outbox',
          },
          items: outbox.map((row) => messageDto(row, receiptList.byNumber)),
        },
        sessions: sessionRows.map((s) => ({
          id: s.id,
          deviceName: s.deviceName,
          platform: s.devicePlatform,
          model: s.deviceModel,
          userAgent: s.userAgent,
          country: s.country,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastUsedAt.toISOString(),
          revokedAt: s.revokedAt?.toISOString() ?? null,
          revokedReason: s.revokedReason,
        })),
        activity: log.slice(0, VIEW_LIMIT).map((a) => ({
          id: a.id,
          type: a.type,
          text: a.text,
          msisdn: a.phoneNumber,
          actorName: a.actor ? `${a.actor.firstname} ${a.actor.lastname}`.trim() : null,
          amountOere: a.amount,
          createdAt: a.createdAt,
        })),
      };
    },

    /**
     * POST /api/staff/customers/:id/sign-out-everywhere — ends every session of the customer
     * (the auth module's revocation, NOTIFY included) and records `customer.sign-out-everywhere`
     * (kind change) in the same transaction.
     */
    async signOutEverywhere(
      id: string,
      reason: string,
      staff: StaffCaller,
    ): Promise<StaffSignOutEverywhereResult> {
      const user = await customerOr404(id);
      const at = now();
      return db.transaction(async (tx) => {
        const ended = await endAllSessionsOfCustomer(tx, user.id, at);
        await recordAudit(tx, {
          actor: staff.actor,
          staffUserId: staff.id,
          kind: 'change',
          action: 'customer.sign-out-everywhere',
          targetType: 'customer',
          targetId: user.id,
          reason,
          details: { sessionsEnded: ended },
          at,
        });
        return { ended };
      });
    },

    /**
     * POST /api/staff/customers/:id/messages/:messageId/resend — sends a kept message to the
     * customer again, when the platform can ({@link classifyMessage}); otherwise 409
     * STAFF_ACTION_NOT_ALLOWED. A message that is not the customer's is 404. Sent first, then
     * recorded (`customer.message-resend`, kind change): a message cannot be unsent, so the entry
     * says what did happen.
     */
    async resend(
      id: string,
      messageId: string,
      reason: string,
      staff: StaffCaller,
    ): Promise<StaffResendResult> {
      const user = await customerOr404(id);
      const row = await findOutboxMessage(db, messageId);
      const recipients = recipientsOf(user, await findLinesOfCustomer(db, user.id));
      if (!row || !recipients.includes(row.recipient))
        throw new AppError('NOT_FOUND', {
          field: 'messageId',
          detail: `no message ${messageId} to customer ${id}`,
        });
      const { byNumber } = await receiptNumbers(user.id, user.locale);
      const { kind, receiptId } = classifyMessage(row, byNumber);
      if (!RESENDABLE.has(kind))
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
          field: 'messageId',
          detail: `a ${kind} message cannot be sent again`,
        });
      let to = row.recipient;
      if (receiptId) {
        // The receipts service makes the PDF anew and sends it to the address as it is now.
        to = (await receipts.email(user.id, receiptId, user.locale)).sentTo;
      } else {
        try {
          await messaging.email.send({
            to: row.recipient,
            subject: row.subject ?? '',
            text: row.text,
            html: row.html ?? `<p>${escapeHtml(row.text).replace(/\n/g, '<br>')}</p>`,
          });
        } catch (error) {
          throw new AppError('SERVICE_UNAVAILABLE', { cause: error, detail: 'e-mail not sent' });
        }
      }
      await recordAudit(db, {
        actor: staff.actor,
        staffUserId: staff.id,
        kind: 'change',
        action: 'customer.message-resend',
        targetType: 'customer',
        targetId: user.id,
        reason,
        details: { messageId: row.id, channel: row.channel, kind, subject: row.subject, to },
        at: now(),
      });
      return { channel: row.channel, to, kind };
    },
  };
}

export type StaffCustomersService = ReturnType<typeof createStaffCustomersService>;
