import { z } from 'zod/mini';
import { ROAMING_CAP_LIMITS } from '../rules/roaming';
import { isoDateTime, mb, oere } from './common';

/**
 * A number's roaming spend cap this month (issue 33 §2, ADR 0078): what data abroad beyond the
 * included allowance (the EU package and the plan's domestic data) has cost, the cap on it, and
 * whether roaming data is stopped because the cap was reached. Money in øre with VAT.
 */
export const roamingCap = z.object({
  /** The month's ceiling on roaming charges; null when the account owner turned it off. */
  capOere: z.nullable(oere),
  /** The ceiling a number has until the owner changes it (`ROAMING_CAP_DEFAULT`). */
  defaultCapOere: oere,
  /** Charged this month for data abroad beyond what is included. */
  chargedOere: oere,
  /** The data those charges are for, MB. */
  chargedMb: mb,
  /** What one MB beyond the included allowance costs abroad (`ROAMING_PRICE_PER_MB`). */
  pricePerMbOere: oere,
  /** Roaming data is stopped in the network until the cap is raised or the month ends. */
  stopped: z.boolean(),
  stoppedAt: z.nullable(isoDateTime),
});
export type RoamingCap = z.infer<typeof roamingCap>;

/**
 * PATCH /api/subscriptions/{id}/roaming-cap: the account owner sets a number's cap (`capOere`,
 * whole kroner, 1–10,000 kr) or turns it off (`null`). Raising it or turning it off exposes the
 * customer to more charges, so it needs `confirmed: true` (the app's confirmation that names the
 * risk, `capChangeNeedsConfirmation`); without it 422 ROAMING_CAP_CONFIRMATION_REQUIRED.
 */
export const updateRoamingCapRequest = z.strictObject({
  capOere: z.nullable(
    z
      .int()
      .check(
        z.gte(ROAMING_CAP_LIMITS.minOere),
        z.lte(ROAMING_CAP_LIMITS.maxOere),
        z.multipleOf(ROAMING_CAP_LIMITS.stepOere),
      ),
  ),
  confirmed: z._default(z.boolean(), false),
});
export type UpdateRoamingCapRequest = z.output<typeof updateRoamingCapRequest>;
