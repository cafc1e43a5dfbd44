import { z } from 'zod/mini';
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
  // Security events (issue 14, ADR 0059).
  'signed_in_new_device',
  'password_changed',
  'pin_locked',
  // Number protection (issue 32, ADR 0076): every lock change and port-out attempt.
  'number_locked',
  'number_unlock_requested',
  'number_unlock_cancelled',
  'number_unlocked',
  'port_out_code_created',
  'port_out_refused',
  'port_out_accepted',
  'data_export',
  // Passkeys (ADR 0097): every one added, used to sign in, and removed.
  'passkey_added',
  'signed_in_passkey',
  'passkey_removed',
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
  phoneNumber: z.nullable(phoneNumber),
  /** Who did it, when it was someone else than the customer (e.g. the family owner). */
  actor: z.nullable(z.object({ id, firstname: z.string(), lastname: z.string() })),
  dataAmount: z.nullable(mb),
  /** Amount charged or refunded, with VAT, in øre. */
  amount: z.nullable(oere),
  createdAt: isoDateTime,
});
export type Action = z.infer<typeof action>;

/** GET /api/actions: newest first. */
export const actionsResponse = z.array(action);
export type ActionsResponse = z.infer<typeof actionsResponse>;

/** Default page size of GET /api/actions when `perPage` is not sent. */
export const ACTIONS_PAGE_SIZE = 20;

/**
 * GET /api/actions?page=0&perPage=20 (query values arrive as strings). Without `page` the answer
 * is the newest 100 entries, as before paging existed.
 */
export const actionsQuery = z.object({
  page: z.optional(z.coerce.number().check(z.int(), z.nonnegative())),
  perPage: z.optional(z.coerce.number().check(z.int(), z.positive(), z.lte(100))),
});
export type ActionsQuery = z.output<typeof actionsQuery>;

/**
 * Paging of GET /api/actions, beside `data` in the envelope (`{ data, meta }`), so clients that
 * read only `data` (an array, as before) keep working.
 */
export const actionsMeta = z.object({
  page: z.int().check(z.nonnegative()),
  perPage: z.int().check(z.positive()),
  /** Entries in all pages. */
  total: z.int().check(z.nonnegative()),
  hasMore: z.boolean(),
});
export type ActionsMeta = z.infer<typeof actionsMeta>;

/** The whole answer of GET /api/actions: `{ data: Action[], meta }`. */
export const actionsPageResponse = z.object({ data: actionsResponse, meta: actionsMeta });
export type ActionsPageResponse = z.infer<typeof actionsPageResponse>;
