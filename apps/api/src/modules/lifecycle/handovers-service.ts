import { splitVat } from '@alda/contract/format/money';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Locale } from '@alda/contract/locale';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type {
  LineHandover,
  TransferToUserCustomerRequest,
} from '@alda/contract/schemas/subscriptions';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import { ONE_PENDING_HANDOVER_CONSTRAINT, type LineHandoverRow } from '../../db/schema/lifecycle';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { findActiveAgreement } from '../agreements/card-on-file';
import { insertNotifications } from '../notifications/notify';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { findPlansByIds } from '../plans/catalogue';
import { orderPlacedOf } from '../provisioning/dto';
import type { ProvisioningService } from '../provisioning/service';
import { findUserByEmail } from '../users/records';
import { bumpUserVersions } from '../versions/change-versions';
import { placeLifecycleOrder } from './place';
import {
  decideHandover,
  findHandover,
  findPendingHandoverOfLine,
  findPendingHandoversOf,
  findUsersByIds,
  insertHandover,
  lockAccounts,
  lockHandover,
} from './transfer-repo';
import { findLineById, lockLine } from './repo';
import {
  lineIdOrNotFound,
  notFound,
  offeredPlan,
  requireLineFree,
  requireParty,
} from './transfer-rules';

export interface HandoverDeps {
  db: Db;
  now: () => Date;
  provisioning: ProvisioningService;
}

interface Bilingual {
  fo: string;
  en: string;
}

/** The in-app words of a hand-over's events, in both languages (read in the reader's). */
const TEXTS = {
  offered: (from: string, n: string, plan: Bilingual) => ({
    title: { fo: 'Nummar boðið tær', en: 'A number offered to you' },
    body: {
      fo: `${from} vil lata tær nummarið ${n} á haldinum ${plan.fo}. Tak ímóti ella sig nei.`,
      en: `${from} wants to hand the number ${n} over to you on the plan ${plan.en}. Accept or decline.`,
    },
  }),
  declined: (to: string, n: string) => ({
    title: { fo: 'Nummarið varð ikki tikið ímóti', en: 'Number not accepted' },
    body: {
      fo: `${to} tók ikki ímóti nummarinum ${n}. Tað verður verandi hjá tær.`,
      en: `${to} declined the number ${n}. It stays with you.`,
    },
  }),
  withdrawn: (from: string, n: string) => ({
    title: { fo: 'Tilboðið tikið aftur', en: 'Offer withdrawn' },
    body: {
      fo: `${from} hevur tikið aftur tilboðið um nummarið ${n}.`,
      en: `${from} has withdrawn the offer of the number ${n}.`,
    },
  }),
  accepted: (to: string, n: string) => ({
    title: { fo: 'Nummarið varð tikið ímóti', en: 'Number accepted' },
    body: {
      fo: `${to} tók ímóti nummarinum ${n}. Tað verður flutt til teirra nú.`,
      en: `${to} accepted the number ${n}. It is being moved to them now.`,
    },
  }),
} as const;

const fullName = (u: { firstname: string; lastname: string } | undefined) =>
  u ? `${u.firstname} ${u.lastname}`.trim() : '';

/**
 * Handing a number to another person (docs/decisions/0056-subscription-lifecycle.md "Hand a
 * number to another person"): the account owner or the number's own user offers it to the
 * Alda user who logs in with an e-mail, on an individual plan; nothing moves while the offer is
 * pending. The receiver accepts (a `hand_over` transfer order: the number gets them as its user
 * and an individual account of theirs) or declines; the giver may withdraw it. Each step is one
 * transaction and tells the other party (in-app notification, change versions).
 */
export function createHandoverService(deps: HandoverDeps) {
  const { db, now, provisioning } = deps;

  async function toDtos(
    tx: Db,
    rows: readonly LineHandoverRow[],
    userId: string,
    locale: Locale,
  ): Promise<LineHandover[]> {
    const people = new Map(
      (
        await findUsersByIds(
          tx,
          rows.flatMap((r) => [r.fromUserId, r.toUserId]),
        )
      ).map((u) => [u.id, u]),
    );
    const plans = new Map(
      (await findPlansByIds(tx, [...new Set(rows.map((r) => r.planId))])).map((p) => [
        p.plan.id,
        p,
      ]),
    );
    const out: LineHandover[] = [];
    for (const row of rows) {
      const line = await findLineById(tx, row.lineId);
      const plan = plans.get(row.planId);
      const from = people.get(row.fromUserId);
      const to = people.get(row.toUserId);
      out.push({
        id: row.id,
        phoneNumber: line?.msisdn ?? '000000',
        status: row.status,
        from: { firstname: from?.firstname ?? '', lastname: from?.lastname ?? '' },
        to: { firstname: to?.firstname ?? '', lastname: to?.lastname ?? '' },
        planId: row.planId,
        planName: plan ? (locale === 'en' ? plan.plan.nameEn : plan.plan.nameFo) : row.planId,
        monthlyPrice: splitVat(plan?.plan.monthlyPriceOere ?? 0),
        isReceiver: row.toUserId === userId,
        createdAt: row.createdAt.toISOString(),
        decidedAt: row.decidedAt?.toISOString() ?? null,
        orderId: row.orderId,
      });
    }
    return out;
  }

  async function one(tx: Db, row: LineHandoverRow, userId: string, locale: Locale) {
    const [dto] = await toDtos(tx, [row], userId, locale);
    if (!dto) throw new Error(`hand-over ${row.id} without a DTO`);
    return dto;
  }

  /** A hand-over the caller is a party to (NOT_FOUND for anyone else and unknown ids). */
  function partyOrNotFound(row: LineHandoverRow | undefined, userId: string, id: string) {
    if (!row || (row.fromUserId !== userId && row.toUserId !== userId))
      throw notFound(`no hand-over ${id} of the caller`);
    return row;
  }

  async function tell(
    tx: Db,
    userId: string,
    msisdn: string,
    message: { title: Bilingual; body: Bilingual },
    link: string | null,
    at: Date,
  ): Promise<void> {
    await insertNotifications(tx, [
      {
        userId,
        type: 'subscription',
        params: { phoneNumber: msisdn, title: message.title, body: message.body },
        link,
        createdAt: at,
      },
    ]);
  }

  return {
    /**
     * PATCH /api/subscriptions/transfer-subscription-to-user-customer: offers the number to the
     * user of `email` on `planId`. RECIPIENT_NOT_FOUND, HANDOVER_TO_SELF, PLAN_NOT_AVAILABLE,
     * CONFLICT while the number has a pending hand-over.
     */
    async offer(
      userId: string,
      body: TransferToUserCustomerRequest,
      locale: Locale,
    ): Promise<LineHandover> {
      const lineId = lineIdOrNotFound(body.subscriptionId);
      const at = now();
      try {
        return await db.transaction(async (tx) => {
          const seen = await findLineById(tx, lineId);
          if (!seen || seen.status === 'cancelled' || !seen.accountId)
            throw notFound(`no line ${lineId}`);
          const [account] = await lockAccounts(tx, [seen.accountId]);
          const line = await lockLine(tx, lineId);
          if (!line || !account || line.accountId !== account.id || account.status === 'cancelled')
            throw notFound(`no line ${lineId}`);
          await requireParty(tx, userId, line, account);
          const recipient = await findUserByEmail(tx, body.email);
          if (!recipient) throw new AppError('RECIPIENT_NOT_FOUND', { field: 'email' });
          if (recipient.id === userId) throw new AppError('HANDOVER_TO_SELF', { field: 'email' });
          const plan = await offeredPlan(tx, body.planId, 'individual_plan', 'planId');
          if (await findPendingHandoverOfLine(tx, line.id))
            throw new AppError('CONFLICT', { detail: `line ${line.id} is offered already` });
          await requireLineFree(tx, line, account);
          const row = await insertHandover(tx, {
            lineId: line.id,
            fromUserId: userId,
            toUserId: recipient.id,
            planId: plan.plan.id,
            status: 'pending',
            createdAt: at,
          });
          const [giver] = await findUsersByIds(tx, [userId]);
          await tell(
            tx,
            recipient.id,
            line.msisdn,
            TEXTS.offered(fullName(giver), formatPhoneNumber(line.msisdn), {
              fo: plan.plan.nameFo,
              en: plan.plan.nameEn,
            }),
            `/yvirtaka/${row.id}`,
            at,
          );
          await bumpUserVersions(tx, [userId, recipient.id]);
          return one(tx, row, userId, locale);
        });
      } catch (error) {
        if (uniqueViolationOf(error) === ONE_PENDING_HANDOVER_CONSTRAINT)
          throw new AppError('CONFLICT', {
            detail: `line ${lineId} is offered already`,
            cause: error,
          });
        throw error;
      }
    },

    /** GET /api/line-handovers: pending hand-overs to and from the caller, oldest first. */
    async pending(userId: string, locale: Locale): Promise<LineHandover[]> {
      return toDtos(db, await findPendingHandoversOf(db, userId), userId, locale);
    },

    /** GET /api/line-handovers/{id}: one hand-over of the caller's, whatever its state. */
    async get(userId: string, id: string, locale: Locale): Promise<LineHandover> {
      if (!isUuid(id)) throw notFound(`no hand-over ${id}`);
      const row = partyOrNotFound(await findHandover(db, id), userId, id);
      return one(db, row, userId, locale);
    },

    /**
     * POST /api/line-handovers/{id}/accept: the receiver takes the number (a card on file
     * needed: AGREEMENT_REQUIRED); places the `hand_over` transfer order, at once. CONFLICT once
     * decided, FORBIDDEN for the giver, NOT_FOUND for anyone else; once per Idempotency-Key.
     */
    async accept(id: string, purchase: Purchase): Promise<OrderPlacedResponse> {
      const { userId } = purchase;
      if (!isUuid(id)) throw notFound(`no hand-over ${id}`);
      const order = await placeUnpaidOnce(db, purchase, async () => {
        const placed = await db.transaction(async (tx) => {
          const at = now();
          const handover = partyOrNotFound(await lockHandover(tx, id), userId, id);
          if (handover.toUserId !== userId)
            throw new AppError('FORBIDDEN', { detail: 'only the receiver accepts a hand-over' });
          if (handover.status !== 'pending')
            throw new AppError('CONFLICT', { detail: `hand-over ${id} is ${handover.status}` });
          if (!(await findActiveAgreement(tx, userId))) throw new AppError('AGREEMENT_REQUIRED');
          const seen = await findLineById(tx, handover.lineId);
          if (!seen || seen.status === 'cancelled' || !seen.accountId)
            throw notFound(`line ${handover.lineId} is gone`);
          const [account] = await lockAccounts(tx, [seen.accountId]);
          const line = await lockLine(tx, handover.lineId);
          if (!line || !account || line.accountId !== account.id || account.status === 'cancelled')
            throw notFound(`line ${handover.lineId} is gone`);
          await requireLineFree(tx, line, account);
          const plan = await offeredPlan(tx, handover.planId, 'individual_plan', 'planId');
          const result = await placeLifecycleOrder(tx, {
            kind: 'transfer',
            action: 'hand_over',
            userId,
            accountId: account.id,
            lineId: line.id,
            msisdn: line.msisdn,
            planId: plan.plan.id,
            previousPlanId: line.planId ?? account.planId,
            effectiveAt: at,
            targetAccountId: null,
            recipientUserId: userId,
            idempotencyKey: purchase.idempotencyKey,
            requestHash: purchase.requestHash,
            now: at,
            stepS: provisioning.timing.stepS,
          });
          await decideHandover(tx, handover.id, {
            status: 'accepted',
            decidedAt: at,
            orderId: result.order.id,
          });
          const [receiver] = await findUsersByIds(tx, [userId]);
          const n = formatPhoneNumber(line.msisdn);
          const told = [...new Set([handover.fromUserId, account.ownerUserId, line.userId])].filter(
            (u): u is string => u !== null && u !== userId,
          );
          for (const other of told)
            await tell(tx, other, line.msisdn, TEXTS.accepted(fullName(receiver), n), null, at);
          await bumpUserVersions(tx, [userId, ...told]);
          return result;
        });
        provisioning.sendEmails(placed.emails);
        return placed.order;
      }).catch((error: unknown) =>
        // The same request sent at the same time may have won: answer its order.
        placeUnpaidOnce(db, purchase, () => Promise.reject(error)),
      );
      return orderPlacedOf(db, order, purchase.locale);
    },

    /**
     * DELETE /api/line-handovers/{id}: the receiver declines or the giver withdraws a pending
     * hand-over; the other party is told. CONFLICT once decided, NOT_FOUND for anyone else.
     */
    async decline(userId: string, id: string, locale: Locale): Promise<LineHandover> {
      if (!isUuid(id)) throw notFound(`no hand-over ${id}`);
      const at = now();
      return db.transaction(async (tx) => {
        const handover = partyOrNotFound(await lockHandover(tx, id), userId, id);
        if (handover.status !== 'pending')
          throw new AppError('CONFLICT', { detail: `hand-over ${id} is ${handover.status}` });
        const isReceiver = handover.toUserId === userId;
        const row = await decideHandover(tx, id, {
          status: isReceiver ? 'declined' : 'withdrawn',
          decidedAt: at,
        });
        const line = await findLineById(tx, handover.lineId);
        const msisdn = line?.msisdn ?? '';
        const [me] = await findUsersByIds(tx, [userId]);
        const other = isReceiver ? handover.fromUserId : handover.toUserId;
        const n = formatPhoneNumber(msisdn);
        await tell(
          tx,
          other,
          msisdn,
          isReceiver ? TEXTS.declined(fullName(me), n) : TEXTS.withdrawn(fullName(me), n),
          isReceiver ? null : `/yvirtaka/${id}`,
          at,
        );
        await bumpUserVersions(tx, [userId, other]);
        return one(tx, row, userId, locale);
      });
    },
  };
}

export type HandoverService = ReturnType<typeof createHandoverService>;
