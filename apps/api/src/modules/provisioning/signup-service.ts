import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { SignupPayload } from '@alda/contract/schemas/signup';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import type { OrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { findActiveAgreement } from '../agreements/card-on-file';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { findPlansByIds } from '../plans/catalogue';
import { bumpUserVersions } from '../versions/change-versions';
import { insertNotifications } from '../notifications/notify';
import { orderPlacedOf } from './dto';
import {
  checkLineSetupReferences,
  claimNumber,
  dropExpiredReservations,
  numberRaceError,
  recordNumberFee,
  simOrderFields,
} from './line-setup';
import { insertAccount, insertLine, insertOrder, insertStep } from './repo';
import { findLiveFamilyAccountOf } from '../subscriptions/accounts';
import type { PendingEmail, ProvisioningService } from './service';
import { stepMessage } from './texts';

const ONE_FAMILY_CONSTRAINT = 'accounts_one_family_per_owner_uq';

export interface SignupDeps {
  db: Db;
  now: () => Date;
  provisioning: ProvisioningService;
}

/**
 * POST /api/subscriptions (docs/decisions/0055-provisioning.md "Placing the order"): the new
 * subscription's account, line, order and first step in one transaction, answered once per
 * Idempotency-Key.
 */
export function createSignupService(deps: SignupDeps) {
  const { db, now, provisioning } = deps;

  async function place(
    tx: Db,
    p: SignupPayload,
    purchase: Purchase,
    at: Date,
  ): Promise<{ order: OrderRow; emails: PendingEmail[] }> {
    const { userId } = purchase;
    // 1. The plan is for sale; a family plan needs the same-address confirmation, once per owner.
    const [offer] = await findPlansByIds(tx, [p.planId]);
    if (!offer || !offer.plan.isOffered || !offer.type.isOffered)
      throw new AppError('PLAN_NOT_AVAILABLE', { field: 'planId' });
    const type = offer.type.kind;
    if (type === 'family_plan') {
      if (!p.sameAddressConfirmed)
        throw new AppError('VALIDATION_FAILED', {
          field: 'sameAddressConfirmed',
          validationKey: 'MUST_ACCEPT',
        });
      if (await findLiveFamilyAccountOf(tx, userId)) throw new AppError('FAMILY_ACCOUNT_EXISTS');
    }
    await checkLineSetupReferences(tx, p);
    // 2. A way to pay it.
    if (!(await findActiveAgreement(tx, userId))) throw new AppError('AGREEMENT_REQUIRED');
    // 3. The number: the caller's live reservation (used up now), or a port of one not ours.
    const claimed = await claimNumber(tx, p, userId, at);
    const { msisdn } = claimed;
    // 4. Account, line, order and the step `received`.
    const account = await insertAccount(tx, {
      ownerUserId: userId,
      type,
      planId: null,
      status: 'processing',
      euPackage: false,
      createdAt: at,
      statusChangedAt: at,
    });
    const line = await insertLine(tx, {
      msisdn,
      userId,
      status: 'processing',
      accountId: account.id,
      planId: offer.plan.id,
      simType: p.eSim ? 'esim' : 'physical',
      isPrepaid: type === 'prepaid',
      createdAt: at,
      statusChangedAt: at,
    });
    await recordNumberFee(tx, line.id, claimed, at);
    const order = await insertOrder(tx, {
      userId,
      accountId: account.id,
      lineId: line.id,
      kind: 'new_subscription',
      isMainSubscription: true,
      planId: offer.plan.id,
      msisdn,
      createdAt: at,
      idempotencyKey: purchase.idempotencyKey,
      requestHash: purchase.requestHash,
      ...simOrderFields(p),
      euPackage: p.euPackage,
      provisioningWaitingFor: 'network',
      provisioningNextAt: new Date(at.getTime() + provisioning.timing.stepS * 1000),
    });
    await insertStep(tx, { orderId: order.id, step: 'received', at, actor: 'customer' });
    await insertActions(tx, [
      {
        userId,
        lineId: line.id,
        type: 'subscription_created',
        payload: { planName: { fo: offer.plan.nameFo, en: offer.plan.nameEn } },
        createdAt: at,
      },
    ]);
    const message = stepMessage('received', { kind: 'new_subscription', msisdn });
    const emails: PendingEmail[] = [];
    if (message) {
      await insertNotifications(tx, [
        {
          userId,
          type: 'subscription',
          params: { phoneNumber: msisdn, title: message.title, body: message.body },
          link: `/menu/bilegingar/${order.id}`,
          createdAt: at,
        },
      ]);
      emails.push({ userId, subject: message.title, body: message.body });
    }
    await bumpUserVersions(tx, [userId]);
    return { order, emails };
  }

  return {
    /**
     * Places the sign-up. A repeated Idempotency-Key answers the first order (or
     * IDEMPOTENCY_KEY_REUSED for another body); a lost race on the number answers
     * RESERVATION_EXPIRED (new number) or NUMBER_ALREADY_OURS (porting).
     */
    async place(payload: SignupPayload, purchase: Purchase): Promise<OrderPlacedResponse> {
      const at = now();
      try {
        const order = await placeUnpaidOnce(db, purchase, async () => {
          const placed = await db.transaction((tx) => place(tx, payload, purchase, at));
          provisioning.sendEmails(placed.emails);
          return placed.order;
        });
        return await orderPlacedOf(db, order, purchase.locale);
      } catch (error) {
        if (uniqueViolationOf(error) === ONE_FAMILY_CONSTRAINT)
          throw new AppError('FAMILY_ACCOUNT_EXISTS', { cause: error });
        const failure = numberRaceError(error, [{ setup: payload, prefix: '' }]);
        // An expired reservation of the caller is gone for good ("choose another number").
        await dropExpiredReservations(db, failure, [payload], purchase.userId, at);
        throw failure;
      }
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
