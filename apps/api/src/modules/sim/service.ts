import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type {
  SimDetails,
  SimReplacementRequest,
  SimSecretsResponse,
} from '@alda/contract/schemas/provisioning';
import { maskIccid } from '@alda/contract/rules/iccid';
import type { Locale } from '@alda/contract/locale';
import type { Reauthentication } from '@alda/contract/schemas/sessions';
import { plainEmail } from '../../adapters/email/plain-email';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { SmsSender } from '../../adapters/sms/sms-sender';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import type { ClientMeta } from '../auth/service';
import { simChangeEmailText, simChangeSmsText } from './texts';
import { lineAccess, type LineAccess } from './line-access';
import { findViewersOfLines } from '../subscriptions/accounts';
import { bumpUserVersions } from '../versions/change-versions';
import { isInPhoneBook } from '../../db/line-facts';
import { AppError } from '../../errors';
import type { AuthUser } from '../../plugins/auth';
import { verifyPassword } from '../auth/passwords';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { orderPlacedOf } from '../provisioning/dto';
import { placeSimChange } from '../provisioning/service';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserById } from '../users/records';
import { findProvisioningOrderOfLine, findShowInPhoneBook, updatePhoneBookVisible } from './repo';

export interface SimServiceDeps {
  db: Db;
  limiter: RateLimiter;
  /** SM-DP+ address of the eSIM activation codes (ESIM_SMDP_ADDRESS). */
  smdpAddress: string;
  now: () => Date;
  /** PROVISIONING_STEP_S: when the worker takes a new SIM order's next step. */
  stepS: number;
  /** The sessions service's step-up (password again, or the SMS code), ADR 0076. */
  reauthenticate: (caller: AuthUser, proof: Reauthentication, meta: ClientMeta) => Promise<void>;
  /** The SMS to the number's old SIM and the e-mail to its user when a new SIM is ordered. */
  sms: SmsSender;
  email: EmailSender;
  background: BackgroundTasks;
  /** SUPPORT_PHONE: the number the alerts name; unset, they say to contact customer service. */
  supportPhone: string | undefined;
}

/** Apple's one-tap eSIM install link (iOS 17.5+): the activation code as `carddata`. */
const APPLE_ESIM_SETUP = 'https://esimsetup.apple.com/esim_qrcode_provisioning';

/** The GSMA SGP.22 activation code of an eSIM profile: `LPA:1$<SM-DP+ address>$<matching id>`. */
export function activationCode(smdpAddress: string, matchingId: string): string {
  return `LPA:1$${smdpAddress}$${matchingId}`;
}

export function iosInstallUrl(code: string): string {
  return `${APPLE_ESIM_SETUP}?carddata=${encodeURIComponent(code)}`;
}

type Access = LineAccess;

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

  const access = (userId: string, lineId: string): Promise<Access> =>
    lineAccess(db, userId, lineId);

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

  /**
   * After a new SIM is placed (ADR 0076): an SMS to the number itself — the old SIM, still in
   * the phone of its rightful user — and an e-mail to the number's user, in their language.
   */
  function tellSimChange(msisdn: string, userId: string): void {
    deps.background.run('sim change alerts', async () => {
      const user = await findUserById(db, userId);
      const locale: Locale = user?.locale === 'en' ? 'en' : 'fo';
      await deps.sms.send({
        to: msisdn,
        text: simChangeSmsText(locale, msisdn, deps.supportPhone),
      });
      if (!user) return;
      const text = simChangeEmailText(locale, msisdn, deps.supportPhone);
      await deps.email.send({
        to: user.email,
        ...plainEmail(locale, user.firstname, text.title, text.body),
      });
    });
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
      caller: AuthUser,
      purchase: Purchase,
      lineId: string,
      body: SimReplacementRequest,
      meta: ClientMeta,
    ): Promise<OrderPlacedResponse> {
      const choice = deliveryChoice(body);
      const { line, account } = await access(purchase.userId, lineId);
      if (!account) throw new AppError('NOT_FOUND', { detail: `line ${lineId} has no account` });
      // Step-up (issue 32, ADR 0076): a SIM swap is how numbers are stolen.
      await deps.reauthenticate(caller, { password: body.password, code: body.code }, meta);
      let placed = false;
      const row = await placeUnpaidOnce(db, purchase, async () => {
        placed = true;
        // Sent to the address on the profile of the person ordering.
        let shipping: { address: string; postCode: string; city: string } | null = null;
        if (choice === 'home') {
          const user = await findUserById(db, purchase.userId);
          if (!user?.address || !user.postCode || !user.city)
            throw new AppError('VALIDATION_FAILED', {
              field: 'sendHome',
              detail: 'the profile has no address to send the SIM to',
            });
          shipping = { address: user.address, postCode: user.postCode, city: user.city };
        }
        return db.transaction((tx) =>
          placeSimChange(tx, {
            userId: purchase.userId,
            lineId: line.id,
            delivery: choice,
            pickupLocationId: choice === 'pickup' ? body.simPickupLocationId : null,
            shipping,
            idempotencyKey: purchase.idempotencyKey,
            requestHash: purchase.requestHash,
            now: deps.now(),
            stepS: deps.stepS,
          }),
        );
      });
      if (placed) tellSimChange(line.msisdn, line.userId ?? account.ownerUserId);
      return orderPlacedOf(db, row, purchase.locale);
    },

    /** PATCH /api/subscriptions/{id}/phone-book: whether this number is in the phone book. */
    async setPhoneBook(userId: string, lineId: string, visible: boolean): Promise<SimDetails> {
      const found = await access(userId, lineId);
      await db.transaction(async (tx) => {
        await updatePhoneBookVisible(tx, lineId, visible);
        // The listing shows in the subscriptions of everyone who sees the number (ADR 0057).
        await bumpUserVersions(tx, await findViewersOfLines(tx, [lineId]));
      });
      return detailsOf({ ...found, line: { ...found.line, phoneBookVisible: visible } });
    },
  };
}

export type SimService = ReturnType<typeof createSimService>;
