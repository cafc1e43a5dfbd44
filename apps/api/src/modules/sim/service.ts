import type { Locale } from '@alda/contract/locale';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type {
  SimDetails,
  SimReplacementRequest,
  SimSecretsResponse,
} from '@alda/contract/schemas/provisioning';
import { maskIccid } from '@alda/contract/rules/iccid';
import type { Db } from '../../db/client';
import { isInPhoneBook } from '../../db/line-facts';
import type { AccountRow } from '../../db/schema/accounts';
import type { OrderRow } from '../../db/schema/orders';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import type { AuthUser } from '../../plugins/auth';
import { verifyPassword } from '../auth/passwords';
import type { Purchase } from '../orders/placing';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserById } from '../users/records';
import {
  findLineWithAccount,
  findOrderByKey,
  findProvisioningOrderOfLine,
  findShowInPhoneBook,
  isMemberOfAccount,
  updatePhoneBookVisible,
} from './repo';

/** How the new SIM of a `sim_change` order reaches the customer. */
export type SimChangeDelivery =
  | { kind: 'esim' }
  | { kind: 'pickup'; simPickupLocationId: string }
  | { kind: 'home'; address: string; postCode: string; city: string };

export interface SimChangeInput {
  userId: string;
  accountId: string;
  lineId: string;
  msisdn: string;
  delivery: SimChangeDelivery;
  idempotencyKey: string;
  requestHash: string;
  /** The caller's language: the order's step reasons are in it. */
  locale: Locale;
}

/**
 * The seam to provisioning (modules/provisioning, ADR 0055): places a `sim_change` order with its
 * first step and answers it as the app sees it. Injected by app.ts.
 */
export interface SimChangePlacer {
  placeSimChange(input: SimChangeInput): Promise<OrderPlacedResponse>;
  /** An order placed earlier, as the app sees it (with its provisioning). */
  orderPlaced(row: OrderRow, locale: Locale): Promise<OrderPlacedResponse>;
}

export interface SimServiceDeps {
  db: Db;
  limiter: RateLimiter;
  /** SM-DP+ address of the eSIM activation codes (ESIM_SMDP_ADDRESS). */
  smdpAddress: string;
  simChanges: SimChangePlacer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Apple's one-tap eSIM install link (iOS 17.5+): the activation code as `carddata`. */
const APPLE_ESIM_SETUP = 'https://esimsetup.apple.com/esim_qrcode_provisioning';

/** The GSMA SGP.22 activation code of an eSIM profile: `LPA:1$<SM-DP+ address>$<matching id>`. */
export function activationCode(smdpAddress: string, matchingId: string): string {
  return `LPA:1$${smdpAddress}$${matchingId}`;
}

export function iosInstallUrl(code: string): string {
  return `${APPLE_ESIM_SETUP}?carddata=${encodeURIComponent(code)}`;
}

interface Access {
  line: PhoneLineRow;
  account: AccountRow | null;
  isOwner: boolean;
}

/**
 * The SIM of a number (SPEC §1 "manage eSIM or physical SIM details and phone-book visibility",
 * ADR 0055): what it is, the eSIM activation code, PIN and PUK after the password, a replacement
 * or a switch to eSIM, and whether the number is in the phone book.
 *
 * Who: the account owner for every number of the account, a member for their own number; another
 * member of the same account gets OWNER_ONLY and anyone else NOT_FOUND — as GET
 * /api/subscriptions/{id} decides (SPEC §6).
 */
export function createSimService(deps: SimServiceDeps) {
  const { db, limiter, smdpAddress } = deps;

  async function access(userId: string, lineId: string): Promise<Access> {
    const notFound = () => new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });
    if (!UUID.test(lineId)) throw notFound();
    const found = await findLineWithAccount(db, lineId);
    if (!found) throw notFound();
    const { line, account } = found;
    if (account?.status === 'cancelled') throw notFound();
    const isOwner = account?.ownerUserId === userId;
    if (isOwner || line.userId === userId) return { line, account, isOwner };
    if (account && (await isMemberOfAccount(db, account.id, userId)))
      throw new AppError('OWNER_ONLY', { detail: `line ${lineId} belongs to another member` });
    throw notFound();
  }

  function esimOf(matchingId: string, installed: boolean): NonNullable<SimDetails['esim']> {
    const code = activationCode(smdpAddress, matchingId);
    return {
      activationCode: code,
      smdpAddress,
      matchingId,
      iosInstallUrl: iosInstallUrl(code),
      installed,
    };
  }

  async function detailsOf({ line }: Access): Promise<SimDetails> {
    const [pending, userShows] = await Promise.all([
      findProvisioningOrderOfLine(db, line.id),
      line.userId ? findShowInPhoneBook(db, line.userId) : Promise.resolve(false),
    ]);
    const isEsim = line.simType === 'esim';
    // The line's own profile; else the profile a pending order prepared (a switch to eSIM, or a
    // new number), so it can be installed before it becomes active.
    const esim =
      isEsim && line.esimMatchingId
        ? esimOf(line.esimMatchingId, line.esimInstalled)
        : pending?.esimMatchingId
          ? esimOf(pending.esimMatchingId, false)
          : null;
    return {
      lineId: line.id,
      phoneNumber: line.msisdn,
      simType: isEsim ? 'esim' : 'physical',
      iccidMasked: !isEsim && line.iccid ? maskIccid(line.iccid) : null,
      esim,
      pendingOrderId: pending?.id ?? null,
      phoneBookVisible: isInPhoneBook(line, userShows),
    };
  }

  /** Exactly one way for the new SIM: eSIM, a pickup shop, or home. */
  function deliveryChoice(body: SimReplacementRequest): 'esim' | 'pickup' | 'home' {
    const chosen = [body.eSim, body.simPickupLocationId !== null, body.sendHome].filter(Boolean);
    if (chosen.length !== 1)
      throw new AppError('VALIDATION_FAILED', {
        field: 'eSim',
        detail: 'choose exactly one of eSim, simPickupLocationId and sendHome',
      });
    return body.eSim ? 'esim' : body.simPickupLocationId !== null ? 'pickup' : 'home';
  }

  return {
    /** GET /api/subscriptions/{id}/sim. */
    async details(userId: string, lineId: string): Promise<SimDetails> {
      return detailsOf(await access(userId, lineId));
    },

    /**
     * POST /api/subscriptions/{id}/sim/secrets: PIN and PUK of a physical SIM once the caller's
     * password is given again. Wrong passwords count against the same per-user limit as change
     * password, so a stolen access token cannot be used to guess it.
     */
    async secrets(caller: AuthUser, lineId: string, password: string): Promise<SimSecretsResponse> {
      const { line } = await access(caller.id, lineId);
      if (line.simType === 'esim')
        throw new AppError('SIM_NOT_PHYSICAL', { detail: `line ${lineId} has an eSIM` });
      const permit = await limiter.consume([
        { policy: POLICIES.currentPassword, subject: [caller.id] },
      ]);
      const user = await findUserById(db, caller.id);
      if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
      const ok = user.passwordHash ? await verifyPassword(user.passwordHash, password) : false;
      if (!ok) throw new AppError('CURRENT_PASSWORD_INCORRECT', { field: 'password' });
      await permit.refund();
      if (!line.simPin || !line.simPuk)
        throw new AppError('NOT_FOUND', { detail: `line ${lineId} has no PIN and PUK on record` });
      return { pin: line.simPin, puk: line.simPuk };
    },

    /**
     * POST /api/subscriptions/{id}/sim/replacement: a `sim_change` order through provisioning.
     * A retry with the same Idempotency-Key answers the first order (another body:
     * IDEMPOTENCY_KEY_REUSED); a number still being set up or already getting a new SIM:
     * ORDER_PROCESSING.
     */
    async replace(
      purchase: Purchase,
      lineId: string,
      body: SimReplacementRequest,
    ): Promise<OrderPlacedResponse> {
      const choice = deliveryChoice(body);
      const { line, account } = await access(purchase.userId, lineId);
      const earlier = await findOrderByKey(db, purchase.userId, purchase.idempotencyKey);
      if (earlier) {
        if (earlier.requestHash !== purchase.requestHash)
          throw new AppError('IDEMPOTENCY_KEY_REUSED', { field: 'Idempotency-Key' });
        return deps.simChanges.orderPlaced(earlier, purchase.locale);
      }
      if (!account) throw new AppError('NOT_FOUND', { detail: `line ${lineId} has no account` });
      if (line.status !== 'active' || (await findProvisioningOrderOfLine(db, line.id)))
        throw new AppError('ORDER_PROCESSING', { detail: `line ${lineId} is being set up` });
      let delivery: SimChangeDelivery;
      if (choice === 'esim') delivery = { kind: 'esim' };
      else if (choice === 'pickup')
        delivery = { kind: 'pickup', simPickupLocationId: body.simPickupLocationId ?? '' };
      else {
        // Sent to the address on the profile of the person ordering.
        const user = await findUserById(db, purchase.userId);
        if (!user?.address || !user.postCode || !user.city)
          throw new AppError('VALIDATION_FAILED', {
            field: 'sendHome',
            detail: 'the profile has no address to send the SIM to',
          });
        delivery = {
          kind: 'home',
          address: user.address,
          postCode: user.postCode,
          city: user.city,
        };
      }
      return deps.simChanges.placeSimChange({
        userId: purchase.userId,
        accountId: account.id,
        lineId: line.id,
        msisdn: line.msisdn,
        delivery,
        idempotencyKey: purchase.idempotencyKey,
        requestHash: purchase.requestHash,
        locale: purchase.locale,
      });
    },

    /** PATCH /api/subscriptions/{id}/phone-book: whether this number is in the phone book. */
    async setPhoneBook(userId: string, lineId: string, visible: boolean): Promise<SimDetails> {
      const found = await access(userId, lineId);
      await updatePhoneBookVisible(db, lineId, visible);
      return detailsOf({ ...found, line: { ...found.line, phoneBookVisible: visible } });
    },
  };
}

export type SimService = ReturnType<typeof createSimService>;
