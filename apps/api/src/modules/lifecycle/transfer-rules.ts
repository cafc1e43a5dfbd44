import { canAddFamilyMember, familyMembersInProcessing } from '@alda/contract/rules/family';
import type { Db } from '../../db/client';
import type { AccountRow } from '../../db/schema/accounts';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { findPlansByIds, type PlanWithType } from '../plans/catalogue';
import { findLinesOfAccounts } from '../subscriptions/accounts';
import { findOpenOrders } from '../orders/lifecycle';

/*
 * The checks transfers and hand-overs share (docs/decisions/0056-subscription-lifecycle.md),
 * run on rows the caller has locked.
 */

export const notFound = (what: string) => new AppError('NOT_FOUND', { field: 'id', detail: what });

/** A live line id, or NOT_FOUND (no hint whether a malformed id exists). */
export function lineIdOrNotFound(id: string): string {
  if (!isUuid(id)) throw notFound(`no line ${id}`);
  return id;
}

/** Who the caller is to a line: its account's owner, its own user, or a stranger. */
export interface LineParty {
  isOwner: boolean;
  isLineUser: boolean;
}

export function partyOf(userId: string, line: PhoneLineRow, account: AccountRow): LineParty {
  return { isOwner: account.ownerUserId === userId, isLineUser: line.userId === userId };
}

/**
 * Refuses a caller who is neither: OWNER_ONLY for another member of the same account (SPEC §6),
 * NOT_FOUND for anyone else.
 */
export async function requireParty(
  tx: Db,
  userId: string,
  line: PhoneLineRow,
  account: AccountRow,
): Promise<LineParty> {
  const party = partyOf(userId, line, account);
  if (party.isOwner || party.isLineUser) return party;
  const lines = await findLinesOfAccounts(tx, [account.id]);
  if (lines.some((l) => l.userId === userId))
    throw new AppError('OWNER_ONLY', { detail: `line ${line.id} is another member's` });
  throw notFound(`no line ${line.id} of the caller`);
}

/**
 * The line can change hands now: it is in service on a subscription (PLAN_CHANGE_BLOCKED on
 * prepaid, ORDER_PROCESSING while being set up), and no order of its account or of the line is
 * open (PLAN_CHANGE_BLOCKED: SPEC §4 "blocked while orders are processing"; a pending month-end
 * change is withdrawn first).
 */
export async function requireLineFree(
  tx: Db,
  line: PhoneLineRow,
  account: AccountRow,
): Promise<void> {
  if (line.status === 'processing' || account.status === 'processing')
    throw new AppError('ORDER_PROCESSING', { detail: `line ${line.id} is being set up` });
  if (line.isPrepaid || account.type === 'prepaid')
    throw new AppError('PLAN_CHANGE_BLOCKED', { detail: `line ${line.id} is prepaid` });
  const open = await findOpenOrders(tx, { accountIds: [account.id], lineIds: [line.id] });
  if (open.length > 0)
    throw new AppError('PLAN_CHANGE_BLOCKED', {
      detail: `order ${open[0]?.id ?? '-'} of account ${account.id} is open`,
    });
}

/** An offered plan of `kind` (PLAN_NOT_AVAILABLE at `field` otherwise). */
export async function offeredPlan(
  tx: Db,
  planId: string,
  kind: 'individual_plan' | 'family_plan',
  field: string,
): Promise<PlanWithType> {
  const [offer] = await findPlansByIds(tx, [planId]);
  if (!offer || !offer.plan.isOffered || !offer.type.isOffered || offer.type.kind !== kind)
    throw new AppError('PLAN_NOT_AVAILABLE', { field, detail: `plan ${planId} is not a ${kind}` });
  return offer;
}

/**
 * SPEC §4 "Family capacity" for one more number on the locked family account `family`: FAMILY_FULL
 * unless maxMembers > members + members being set up (members added, numbers moving onto it);
 * ORDER_PROCESSING while the family itself is being set up by its sign-up.
 */
export async function requireFamilySeat(tx: Db, family: AccountRow): Promise<void> {
  const open = await findOpenOrders(tx, { accountIds: [family.id] });
  const settingUp = open.some((o) => o.isMainSubscription && o.accountId === family.id);
  if (settingUp)
    throw new AppError('ORDER_PROCESSING', { detail: `family ${family.id} is being set up` });
  const [plan] = family.planId ? await findPlansByIds(tx, [family.planId]) : [];
  if (!plan) throw new Error(`family ${family.id} has no plan`);
  const lines = await findLinesOfAccounts(tx, [family.id]);
  const members = lines.filter((l) => l.status === 'active').length;
  const moving = open.filter(
    (o) => o.accountId === family.id || o.lifecycleAction === 'move_to_family_account',
  );
  const processing = familyMembersInProcessing(moving, new Set([plan.plan.id])).length;
  const state = { isProcessing: false, isPrepaid: lines.some((l) => l.isPrepaid) };
  if (!canAddFamilyMember(plan.plan.maxMembers, members, processing, state))
    throw new AppError('FAMILY_FULL', {
      detail: `${plan.plan.maxMembers} seats, ${members} members, ${processing} being added`,
    });
}
