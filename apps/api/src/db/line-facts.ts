import { eq, sql } from 'drizzle-orm';
import { accounts } from './schema/accounts';
import { plans } from './schema/catalog';
import { phoneLines } from './schema/phone-lines';

/*
 * What a line is, read from the line, its account and its plan (ADR 0030), written once for
 * every query that joins `accounts` on `phone_lines.account_id` and `plans` on `linePlanJoin()`.
 * Functions, so each query gets its own SQL object.
 */

/** Joins a line to its plan: the line's own plan, or else its account's. */
export const linePlanJoin = () =>
  eq(plans.id, sql`coalesce(${phoneLines.planId}, ${accounts.planId})`);

/** Prepaid (talutíð): the line is marked so, or it sits on a prepaid account. */
export const lineIsPrepaid = () =>
  sql<boolean>`(${phoneLines.isPrepaid} or coalesce(${accounts.type} = 'prepaid', false))`;

/** Whose line it is: its own user, or else the account owner (a child's line on a family plan). */
export const lineCustomerId = () =>
  sql<string | null>`coalesce(${phoneLines.userId}, ${accounts.ownerUserId})`;

/** The month's EU allowance: the plan's EU data when the account has the EU package, else null. */
export const lineEuAllowanceMb = () =>
  sql<number | null>`case when ${accounts.euPackage} then ${plans.euPackageDataMb} else null end`;

/* The same rules for rows already read. */

/** The line's plan id: its own, or else its account's. */
export const planIdOfLine = (
  line: { planId: string | null },
  account: { planId: string | null },
): string | null => line.planId ?? account.planId;

/** Prepaid (talutíð): the line is marked so, or it sits on a prepaid account. */
export const isPrepaidLine = (line: { isPrepaid: boolean }, account: { type: string }): boolean =>
  line.isPrepaid || account.type === 'prepaid';

/**
 * Listed in the phone book (SPEC §1, per number): the number's own setting, else its user's; a
 * line without a user of its own (a child on a family plan) is not listed unless set so.
 */
export const isInPhoneBook = (
  line: { phoneBookVisible: boolean | null; userId: string | null },
  userShowInPhoneBook: boolean,
): boolean => line.phoneBookVisible ?? (line.userId !== null && userShowInPhoneBook);
