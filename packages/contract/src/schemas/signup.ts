import { z } from 'zod/mini';
import { phoneNumberInput } from '../rules/phone';
import { faroesePostCodeSchema } from '../rules/postcode';
import { mustAccept, requiredText } from '../rules/required';
import { id } from './common';
import { simcardNumber } from '../rules/iccid';

/** SPEC §3 "Signup state": the choices the sign-up screens keep (client state, not sent as is). */
export const signupSimType = z.enum(['ESIM', 'PHYSICAL']);
export const signupPickupType = z.enum(['LOCATION', 'HOME']);
export const signupPhoneNumberType = z.enum(['NEW', 'OWN']);

/** SPEC §3 simShippingAddress: the user's address, postal code and city. */
export const shippingAddress = z.object({
  address: requiredText(200),
  postCode: faroesePostCodeSchema,
  city: requiredText(100),
});
export type ShippingAddress = z.output<typeof shippingAddress>;

/**
 * How a new line is set up, shared by the sign-up and by adding a family member (SPEC §3
 * "Signup payload"): a new number (`phoneNumberReservationId`) or a ported one (`porting`), and
 * the SIM. Checked by {@link checkLineSetup}.
 */
export const lineSetupFields = {
  phoneNumberReservationId: z.nullable(id),
  eSim: z.boolean(),
  simcardNumber: z.nullable(simcardNumber),
  /** Number porting: the number and the SIM card number at the current provider. */
  porting: z.nullable(z.object({ phoneNumber: phoneNumberInput, simcardNumber })),
  simPickupLocationId: z.nullable(id),
  simShippingAddress: z.nullable(shippingAddress),
};

interface LineSetup {
  phoneNumberReservationId: string | null;
  eSim: boolean;
  simcardNumber: string | null;
  porting: unknown;
  simPickupLocationId: string | null;
  simShippingAddress: unknown;
}

/**
 * The rules of a line's set-up beyond its fields:
 * - a new number (`phoneNumberReservationId`) or a ported one (`porting`), exactly one;
 * - eSIM needs no card, pickup or shipping; a physical SIM comes from exactly one of: a card the
 *   customer already holds (`simcardNumber`), a pickup location, or shipping to the address.
 */
export function checkLineSetup(p: LineSetup, ctx: z.core.$RefinementCtx): void {
  const numberChoices = Number(p.phoneNumberReservationId !== null) + Number(p.porting !== null);
  if (numberChoices !== 1) {
    ctx.addIssue({ code: 'custom', message: 'REQUIRED', path: ['phoneNumberReservationId'] });
  }
  const deliveries = Number(p.simPickupLocationId !== null) + Number(p.simShippingAddress !== null);
  if (p.eSim && (deliveries > 0 || p.simcardNumber !== null)) {
    ctx.addIssue({ code: 'custom', message: 'INVALID', path: ['eSim'] });
  }
  if (!p.eSim && deliveries + Number(p.simcardNumber !== null) !== 1) {
    ctx.addIssue({ code: 'custom', message: 'REQUIRED', path: ['simPickupLocationId'] });
  }
}

/**
 * SPEC §3 "Signup payload", the body of POST /api/subscriptions (new subscription, 6-month
 * binding): the plan, the line's set-up ({@link checkLineSetup}), and the binding period and
 * terms accepted; on family plans the owner confirms that all members live at the same address
 * (SPEC §5).
 */
export const signupPayload = z
  .object({
    planId: id,
    euPackage: z.boolean(),
    ...lineSetupFields,
    hasAcceptedBindingPeriod: mustAccept(),
    hasAcceptedTerms: mustAccept(),
    /** Required (true) for family plans; the API checks it against the plan type. */
    sameAddressConfirmed: z._default(z.boolean(), false),
  })
  .check(z.superRefine(checkLineSetup));
export type SignupPayloadInput = z.input<typeof signupPayload>;
export type SignupPayload = z.output<typeof signupPayload>;
