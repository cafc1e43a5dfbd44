import { z } from 'zod/mini';
import { requiredText } from '../rules/required';
import { order } from './orders';
import { checkLineSetup, lineSetupFields } from './signup';

/*
 * PATCH /api/subscriptions (SPEC §7: the EU toggle, or adding people to a family account) and the
 * answer to adding. Apart from subscriptions.ts so that the start-up's `subscriptionsResponse`
 * does not carry the sign-up's line set-up (postcodes, localities) into home's first-screen JS.
 */

/**
 * A person to add to a family plan (SPEC §2 /stovna-familju-lim): their name, and the number and
 * SIM exactly as in sign-up (a reserved new number or a port; eSIM, a card held, a shop or
 * shipping).
 */
export const newFamilyMember = z
  .object({
    firstname: requiredText(100),
    lastname: requiredText(100),
    ...lineSetupFields,
  })
  .check(z.superRefine(checkLineSetup));
export type NewFamilyMemberInput = z.input<typeof newFamilyMember>;
export type NewFamilyMember = z.output<typeof newFamilyMember>;

/**
 * PATCH /api/subscriptions on the current account: either toggle the EU package or add members
 * (SPEC §7). Adding members answers addMembersResponse; the toggle answers the account.
 */
export const patchSubscriptionsRequest = z.union([
  z.strictObject({ euPackage: z.boolean() }),
  z.strictObject({ addMembers: z.array(newFamilyMember).check(z.minLength(1), z.maxLength(5)) }),
]);
export type PatchSubscriptionsRequest = z.output<typeof patchSubscriptionsRequest>;

/** PATCH /api/subscriptions with `addMembers`: one `add_member` order per person, in order. */
export const addMembersResponse = z.object({ orders: z.array(order) });
export type AddMembersResponse = z.infer<typeof addMembersResponse>;
