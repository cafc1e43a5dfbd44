import type { NumberMatchMode } from '@alda/contract/rules/number-picker';
import type { Plan } from '@alda/contract/schemas/plans';
import type {
  ShippingAddress,
  SignupPayloadInput,
  signupPhoneNumberType,
  signupPickupType,
  signupSimType,
} from '@alda/contract/schemas/signup';
import type { z } from 'zod/mini';

/** The plan types one can sign up for (SPEC §2 `/nytt-hald/:planType`); prepaid is not sold. */
export const SIGNUP_PLAN_TYPES = ['individual_plan', 'family_plan'] as const;
export type SignupPlanType = (typeof SIGNUP_PLAN_TYPES)[number];

export function isSignupPlanType(value: unknown): value is SignupPlanType {
  return (SIGNUP_PLAN_TYPES as readonly unknown[]).includes(value);
}

/** Where a physical SIM comes from: SPEC §3 pick-up `LOCATION`/`HOME`, or a card already held. */
export type SimSource = z.infer<typeof signupPickupType> | 'OWN_CARD';

/** A number reserved by the number search (POST /auth/reserved-numbers answered `free`). */
export interface Reservation {
  phoneNumber: string;
  reservationId: string;
  /** ISO time; the reservation (30 minutes, ADR 0024) ends then. */
  reservedUntil: string;
  /** An easy number's one-off price held by the reservation, øre with VAT (ADR 0077). */
  oneOffPrice?: number | null;
}

/**
 * What the customer has chosen so far (SPEC §3 "Signup state"), kept on the device so a reload,
 * a dropped connection or the round trip through the card page loses nothing. Text fields hold
 * what was typed; the contract schemas judge them when the payload is built.
 */
export interface SignupDraft {
  v: 1;
  /** `/legg-hald-afturat` asks for it first; `/nytt-hald/:planType` takes it from the path. */
  planType: SignupPlanType | null;
  planId: string | null;
  euPackage: boolean;
  numberType: z.infer<typeof signupPhoneNumberType>;
  /** The last number or digits typed into the search. */
  search: string;
  /** How the digits of the search match (the number picker, issue 33 §1). */
  searchMatch?: NumberMatchMode;
  reservation: Reservation | null;
  porting: { phoneNumber: string; simcardNumber: string };
  simType: z.infer<typeof signupSimType> | null;
  simSource: SimSource | null;
  pickupLocationId: string | null;
  /** Null until the customer edits it: then the profile's address is shown. */
  shipping: ShippingAddress | null;
  /** The ICCID of a card the customer already holds. */
  simcardNumber: string;
  hasAcceptedBindingPeriod: boolean;
  hasAcceptedTerms: boolean;
  sameAddressConfirmed: boolean;
}

export function emptyDraft(planType: SignupPlanType | null): SignupDraft {
  return {
    v: 1,
    planType,
    planId: null,
    euPackage: false,
    numberType: 'NEW',
    search: '',
    reservation: null,
    porting: { phoneNumber: '', simcardNumber: '' },
    simType: null,
    simSource: null,
    pickupLocationId: null,
    shipping: null,
    simcardNumber: '',
    hasAcceptedBindingPeriod: false,
    hasAcceptedTerms: false,
    sameAddressConfirmed: false,
  };
}

/**
 * True once the customer has chosen more than a plan (which the plans screens may have chosen for
 * them): leaving the flow then asks first (SPEC §2, §5 unsaved changes).
 */
export function hasChoices(draft: SignupDraft): boolean {
  const ignore = { planType: null, planId: null };
  return (
    JSON.stringify({ ...draft, ...ignore }) !== JSON.stringify({ ...emptyDraft(null), ...ignore })
  );
}

/** Which sign-up a draft belongs to: a new subscription or one added by a customer. */
export type SignupFlow = 'new' | 'add';

const PREFIX = 'alda.signup.';
/** A draft older than this is dropped: its reservation and choices are long stale. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

const keyOf = (userId: string, flow: SignupFlow) => `${PREFIX}${userId}.${flow}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The saved draft of this user and flow, or null (none, too old, or unreadable). */
export function loadDraft(userId: string, flow: SignupFlow, now = Date.now()): SignupDraft | null {
  const raw = storage()?.getItem(keyOf(userId, flow));
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as { savedAt?: unknown; draft?: SignupDraft };
    if (typeof saved.savedAt !== 'number' || now - saved.savedAt > MAX_AGE_MS) return null;
    if (!saved.draft || saved.draft.v !== 1) return null;
    return { ...emptyDraft(saved.draft.planType), ...saved.draft };
  } catch {
    return null;
  }
}

export function saveDraft(userId: string, flow: SignupFlow, draft: SignupDraft): void {
  try {
    storage()?.setItem(keyOf(userId, flow), JSON.stringify({ savedAt: Date.now(), draft }));
  } catch {
    // Full or refused storage: the flow still works, only a reload would start over.
  }
}

export function clearDraft(userId: string, flow: SignupFlow): void {
  try {
    storage()?.removeItem(keyOf(userId, flow));
  } catch {
    // Nothing to forget.
  }
}

/** Logout (app/session-reset): the next person on the device starts with nothing. */
export function forgetSignupDrafts(): void {
  const store = storage();
  if (!store) return;
  try {
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter(
      (key): key is string => key !== null && key.startsWith(PREFIX),
    );
    for (const key of keys) store.removeItem(key);
  } catch {
    // Refused storage holds no drafts.
  }
}

/** The reservation is still held at `now`. */
export function reservationValid(reservation: Reservation | null, now = Date.now()): boolean {
  return reservation !== null && Date.parse(reservation.reservedUntil) > now;
}

/** The payload before the contract judges it: the acceptances may still be unticked. */
export type SignupPayloadCandidate = Omit<
  SignupPayloadInput,
  'hasAcceptedBindingPeriod' | 'hasAcceptedTerms'
> & { hasAcceptedBindingPeriod: boolean; hasAcceptedTerms: boolean };

/** The line's set-up fields (shared by the sign-up and a new family member), before judging. */
export type LineSetupCandidate = Pick<
  SignupPayloadInput,
  | 'phoneNumberReservationId'
  | 'eSim'
  | 'simcardNumber'
  | 'porting'
  | 'simPickupLocationId'
  | 'simShippingAddress'
>;

/**
 * The number and SIM of the draft as the contract's `lineSetupFields`: a reserved new number or a
 * ported one; eSIM, or a physical SIM from exactly one of a shop, the address, or a card already
 * held. Used by the sign-up and by adding a family member (`newFamilyMember`).
 */
export function lineSetupOf(draft: SignupDraft): LineSetupCandidate {
  const porting = draft.numberType === 'OWN';
  const eSim = draft.simType === 'ESIM';
  const source = eSim ? null : draft.simSource;
  return {
    phoneNumberReservationId: porting ? null : (draft.reservation?.reservationId ?? null),
    eSim,
    simcardNumber: source === 'OWN_CARD' ? draft.simcardNumber : null,
    porting: porting
      ? { phoneNumber: draft.porting.phoneNumber, simcardNumber: draft.porting.simcardNumber }
      : null,
    simPickupLocationId: source === 'LOCATION' ? draft.pickupLocationId : null,
    simShippingAddress: source === 'HOME' ? draft.shipping : null,
  };
}

/**
 * SPEC §3 "Sign-up payload" from the draft: the plan, the line's set-up ({@link lineSetupOf})
 * and the acceptances. The result is judged by the contract's `signupPayload` before it is sent.
 */
export function buildSignupPayload(draft: SignupDraft, plan: Plan): SignupPayloadCandidate {
  return {
    planId: plan.planId,
    euPackage: plan.euPackage !== null && draft.euPackage,
    ...lineSetupOf(draft),
    hasAcceptedBindingPeriod: draft.hasAcceptedBindingPeriod,
    hasAcceptedTerms: draft.hasAcceptedTerms,
    sameAddressConfirmed: plan.type === 'family_plan' && draft.sameAddressConfirmed,
  };
}
