import { z } from 'zod';
import { phoneNumber } from '../rules/phone';
import { id, isoDateTime, mb, oere } from './common';

/** Kinds of entry in the activity log. */
export const actionType = z.enum([
  'subscription_created',
  'subscription_cancelled',
  'plan_changed',
  'member_added',
  'member_moved',
  'member_removed',
  'package_purchased',
  'eu_package_changed',
  'data_given',
  'data_received',
  'data_requested',
  'top_up',
  'payment',
  'sim_changed',
  'profile_updated',
]);
export type ActionType = z.infer<typeof actionType>;

/**
 * One entry of the activity log (GET /api/actions; SPEC §3 leaves the fields open). `text` is a
 * ready sentence in the requested language; the structured fields let the app format amounts
 * itself and filter by number.
 */
export const action = z.object({
  id,
  type: actionType,
  text: z.string(),
  /** Number the action concerns, if any. */
  phoneNumber: phoneNumber.nullable(),
  /** Who did it, when it was someone else than the customer (e.g. the family owner). */
  actor: z.object({ id, firstname: z.string(), lastname: z.string() }).nullable(),
  dataAmount: mb.nullable(),
  /** Amount charged or refunded, with VAT, in øre. */
  amount: oere.nullable(),
  createdAt: isoDateTime,
});
export type Action = z.infer<typeof action>;

/** GET /api/actions: newest first. */
export const actionsResponse = z.array(action);
export type ActionsResponse = z.infer<typeof actionsResponse>;
