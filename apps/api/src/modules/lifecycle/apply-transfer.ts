import { startOfMonth } from '@alda/contract/format/date';
import { isUnlimited } from '@alda/contract/format/data';
import type { Db } from '../../db/client';
import type { AccountRow } from '../../db/schema/accounts';
import type { LineBalanceRow } from '../../db/schema/balances';
import type { OrderRow } from '../../db/schema/orders';
import { findPlansByIds } from '../plans/catalogue';
import { initialBuckets } from '../usage/balance';
import { insertMissingBalances } from '../usage/balance-rows';
import { bumpUserVersions } from '../versions/change-versions';
import { lockAccounts, lockBalance, updateBalance } from './transfer-repo';
import { findLineById, insertAccountRow, lockLine, updateAccountRow, updateLineRow } from './repo';
import { findLinesOfAccounts } from '../subscriptions/accounts';

/*
 * A transfer order takes effect (docs/decisions/0056-subscription-lifecycle.md "Family members",
 * "Hand a number to another person"): the line moves to its new account. Called by the
 * lifecycle's apply step, inside the transaction that completes the order; this moves the line
 * only (the order, its step and notification are the caller's).
 */

/** What this month's balance becomes when the line's plan data goes from `fromMb` to `toMb`. */
export function balanceOnNewPlan(
  balance: Pick<
    LineBalanceRow,
    'domesticTotalMb' | 'domesticRemainingMb' | 'domesticUsedMb' | 'euAllowanceMb' | 'euUsedMb'
  >,
  fromMb: number,
  toMb: number,
  euAllowanceMb: number | null,
): {
  domesticTotalMb: number;
  domesticRemainingMb: number;
  euAllowanceMb: number | null;
} {
  // What the month holds besides the plan (extra packages, gifts, rollover) stays.
  const extra = Math.max(0, balance.domesticTotalMb - fromMb);
  const total = toMb + extra;
  let remaining: number;
  if (isUnlimited(toMb)) remaining = total;
  else if (isUnlimited(fromMb)) remaining = total - balance.domesticUsedMb;
  else remaining = balance.domesticRemainingMb + (toMb - fromMb);
  return {
    domesticTotalMb: total,
    domesticRemainingMb: Math.max(0, Math.min(total, remaining)),
    // The EU use of the month stays counted; an allowance never drops below it.
    euAllowanceMb: euAllowanceMb === null ? null : Math.max(euAllowanceMb, balance.euUsedMb),
  };
}

/**
 * Moves the transfer order's line (`lifecycleAction` `move_to_own_account`,
 * `move_to_family_account` or `hand_over`) to its new account, at `at`:
 * - `move_to_own_account`: onto `targetAccountId` when placement made one, else a new individual
 *   account owned by the order's customer, on the order's plan;
 * - `move_to_family_account`: onto the family account `targetAccountId` (made at placement when
 *   the customer had none; it becomes active now), on the family's plan;
 * - `hand_over`: the line gets `recipientUserId` as its user and a new individual account they
 *   own, on the order's plan; a new commitment starts (the line's activation is now).
 * The account the line left is closed when no line is left on it (family → individual closes
 * the family). This month's data follows the new plan: what was used stays used, the totals
 * change by the difference in plan data. Locks: the accounts (id order), then the line and its
 * balance. Change versions of everyone concerned are bumped.
 */
export async function applyTransfer(tx: Db, order: OrderRow, at: Date): Promise<void> {
  const action = order.lifecycleAction;
  if (
    action !== 'move_to_own_account' &&
    action !== 'move_to_family_account' &&
    action !== 'hand_over'
  )
    throw new Error(`order ${order.id} is not a transfer (${action ?? 'no action'})`);
  if (!order.lineId) throw new Error(`transfer ${order.id} has no line`);
  const unlocked = await findLineById(tx, order.lineId);
  if (!unlocked) throw new Error(`transfer ${order.id}: line ${order.lineId} is gone`);
  const sourceId = unlocked.accountId;
  const locked = await lockAccounts(tx, [
    ...(sourceId ? [sourceId] : []),
    ...(order.targetAccountId ? [order.targetAccountId] : []),
  ]);
  const line = await lockLine(tx, order.lineId);
  if (!line) throw new Error(`transfer ${order.id}: line ${order.lineId} is gone`);
  const source = locked.find((a) => a.id === line.accountId);
  const existingTarget = locked.find((a) => a.id === order.targetAccountId);
  if (line.accountId !== sourceId)
    throw new Error(`transfer ${order.id}: line ${line.id} moved while being locked`);

  // 1. The account the line goes to.
  let target: AccountRow;
  if (action === 'move_to_family_account') {
    if (!existingTarget || existingTarget.type !== 'family_plan')
      throw new Error(`transfer ${order.id}: no family account ${order.targetAccountId ?? '-'}`);
    target = existingTarget;
    if (target.status !== 'active') {
      await updateAccountRow(tx, target.id, { status: 'active', statusChangedAt: at });
      target = { ...target, status: 'active', statusChangedAt: at };
    }
  } else if (action === 'move_to_own_account' && existingTarget) {
    target = existingTarget;
    if (target.status !== 'active') {
      await updateAccountRow(tx, target.id, { status: 'active', statusChangedAt: at });
      target = { ...target, status: 'active', statusChangedAt: at };
    }
  } else {
    const ownerUserId = action === 'hand_over' ? order.recipientUserId : order.userId;
    if (!ownerUserId) throw new Error(`hand-over ${order.id} has no recipient`);
    target = await insertAccountRow(tx, {
      ownerUserId,
      type: 'individual_plan',
      planId: order.planId,
      status: 'active',
      euPackage: false,
      createdAt: at,
      statusChangedAt: at,
    });
  }
  if (target.id === line.accountId) return; // applied already (a retried step)
  const planId = target.type === 'family_plan' ? (target.planId ?? order.planId) : order.planId;
  if (!planId) throw new Error(`transfer ${order.id} has no plan`);
  const fromPlanId = line.planId ?? source?.planId ?? order.previousPlanId;
  const plans = await findPlansByIds(tx, [planId, ...(fromPlanId ? [fromPlanId] : [])]);
  const toPlan = plans.find((p) => p.plan.id === planId);
  const fromPlan = plans.find((p) => p.plan.id === fromPlanId);
  if (!toPlan) throw new Error(`transfer ${order.id}: plan ${planId} is unknown`);
  if (target.type !== 'family_plan' && target.planId !== planId)
    await updateAccountRow(tx, target.id, { planId });

  // 2. The line.
  const previousUserId = line.userId;
  const userId = action === 'hand_over' ? order.recipientUserId : line.userId;
  await updateLineRow(tx, line.id, {
    accountId: target.id,
    planId,
    userId,
    isPrepaid: false,
    expiresAt: null,
    ...(action === 'hand_over' ? { activatedAt: at, phoneBookVisible: null } : {}),
  });

  // 3. This month's data on the new plan.
  const euAllowance = target.euPackage ? (toPlan.plan.euPackageDataMb ?? null) : null;
  const balance = await lockBalance(tx, line.id);
  if (balance && balance.periodStart.getTime() === startOfMonth(at).getTime()) {
    await updateBalance(tx, line.id, {
      ...balanceOnNewPlan(
        balance,
        fromPlan?.plan.dataMb ?? toPlan.plan.dataMb,
        toPlan.plan.dataMb,
        euAllowance,
      ),
      updatedAt: at,
    });
  } else if (!balance && line.status === 'active') {
    await insertMissingBalances(tx, [
      {
        lineId: line.id,
        periodStart: startOfMonth(at),
        ...initialBuckets(toPlan.plan.dataMb, euAllowance),
        updatedAt: at,
      },
    ]);
  }

  // 4. The account it left closes when no line is left on it.
  const concerned = new Set<string>([order.userId, target.ownerUserId]);
  if (previousUserId) concerned.add(previousUserId);
  if (userId) concerned.add(userId);
  for (const l of await findLinesOfAccounts(tx, [target.id])) if (l.userId) concerned.add(l.userId);
  if (source) {
    concerned.add(source.ownerUserId);
    const left = await findLinesOfAccounts(tx, [source.id]);
    for (const l of left) if (l.userId) concerned.add(l.userId);
    if (left.length === 0 && source.status !== 'cancelled')
      await updateAccountRow(tx, source.id, { status: 'cancelled', statusChangedAt: at });
  }
  await bumpUserVersions(tx, [...concerned]);
}
