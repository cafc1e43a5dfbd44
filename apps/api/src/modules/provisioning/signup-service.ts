import { placeOfPostCode } from '@alda/contract/localities/lookup';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { SignupPayload } from '@alda/contract/schemas/signup';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import type { OrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { insertActions } from '../actions/log';
import { findActiveAgreement } from '../agreements/card-on-file';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { findLiveLine } from '../phone-lines/lines';
import { findPlansByIds } from '../plans/catalogue';
import { bumpUserVersions } from '../versions/change-versions';
import { insertNotifications } from '../notifications/notify';
import { orderPlacedOf } from './dto';
import {
  deleteExpiredReservation,
  deleteReservation,
  findPickupLocations,
  hasLiveFamilyAccount,
  insertAccount,
  insertLine,
  insertOrder,
  insertStep,
  lockReservation,
  reservationHeldBy,
} from './repo';
import type { PendingEmail, ProvisioningService } from './service';
import { stepMessage } from './texts';

/** The live-number index: a second live line with the same number loses the race. */
const LIVE_NUMBER_CONSTRAINT = 'phone_lines_msisdn_live_uq';
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

  /** Checks that need no lock: the payload's references and the shipping address. */
  async function checkPayload(tx: Db, p: SignupPayload): Promise<void> {
    if (p.simPickupLocationId !== null) {
      const [shop] = await findPickupLocations(tx, [p.simPickupLocationId]);
      if (!shop) throw new AppError('PICKUP_LOCATION_NOT_FOUND', { field: 'simPickupLocationId' });
    }
    if (p.simShippingAddress !== null) {
      const { postCode, city } = p.simShippingAddress;
      if (!placeOfPostCode(postCode, city))
        throw new AppError('VALIDATION_FAILED', {
          field: 'simShippingAddress.city',
          validationKey: 'CITY_POSTCODE_MISMATCH',
        });
    }
  }

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
      if (await hasLiveFamilyAccount(tx, userId)) throw new AppError('FAMILY_ACCOUNT_EXISTS');
    }
    await checkPayload(tx, p);
    // 2. A way to pay it.
    if (!(await findActiveAgreement(tx, userId))) throw new AppError('AGREEMENT_REQUIRED');
    // 3. The number: the caller's live reservation (used up now), or a port of one not ours.
    let msisdn: string;
    if (p.porting) {
      msisdn = p.porting.phoneNumber;
      if (await findLiveLine(tx, msisdn))
        throw new AppError('NUMBER_ALREADY_OURS', { field: 'porting.phoneNumber' });
    } else {
      const id = p.phoneNumberReservationId ?? '';
      const reservation = isUuid(id) ? await lockReservation(tx, id) : undefined;
      if (!reservationHeldBy(reservation, userId, at))
        throw new AppError('RESERVATION_EXPIRED', { field: 'phoneNumberReservationId' });
      msisdn = reservation.msisdn;
      await deleteReservation(tx, reservation.id);
    }
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
    const delivery = p.eSim
      ? 'esim'
      : p.simPickupLocationId !== null
        ? 'pickup'
        : p.simShippingAddress !== null
          ? 'home'
          : 'own_card';
    const place = p.simShippingAddress
      ? placeOfPostCode(p.simShippingAddress.postCode, p.simShippingAddress.city)
      : undefined;
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
      simDelivery: delivery,
      simPickupLocationId: p.simPickupLocationId,
      shippingAddress: p.simShippingAddress?.address ?? null,
      shippingPostCode: p.simShippingAddress?.postCode ?? null,
      shippingCity: place?.name ?? p.simShippingAddress?.city ?? null,
      simcardNumber: p.simcardNumber,
      portingSimcardNumber: p.porting?.simcardNumber ?? null,
      isPorting: p.porting !== null,
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
        const constraint = uniqueViolationOf(error);
        if (constraint === LIVE_NUMBER_CONSTRAINT)
          throw payload.porting
            ? new AppError('NUMBER_ALREADY_OURS', { field: 'porting.phoneNumber', cause: error })
            : new AppError('RESERVATION_EXPIRED', {
                field: 'phoneNumberReservationId',
                cause: error,
              });
        if (constraint === ONE_FAMILY_CONSTRAINT)
          throw new AppError('FAMILY_ACCOUNT_EXISTS', { cause: error });
        if (
          error instanceof AppError &&
          error.code === 'RESERVATION_EXPIRED' &&
          payload.phoneNumberReservationId &&
          isUuid(payload.phoneNumberReservationId)
        ) {
          // An expired reservation of the caller is gone for good ("choose another number").
          await deleteExpiredReservation(db, payload.phoneNumberReservationId, purchase.userId, at);
        }
        throw error;
      }
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
