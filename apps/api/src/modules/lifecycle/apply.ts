import { startOfMonth } from '@alda/contract/format/date';
import type { Db } from '../../db/client';
import type { AccountRow } from '../../db/schema/accounts';
import type { OrderRow } from '../../db/schema/orders';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { insertNotifications } from '../notifications/notify';
import { completeOrder } from '../orders/lifecycle';
import { findPlansByIds } from '../plans/catalogue';
import type { PendingEmail } from '../provisioning/service';
import { bumpUserVersions } from '../versions/change-versions';
import { applyTransfer, balanceOnNewPlan } from './apply-transfer';
import {
  claimDueMonthEndOrder,
  ensurePrepaidBalance,
  hasDueMonthEndOrderOf,
  insertAccountRow,
  insertLifecycleStep,
  lockAccount,
  lockBalancesOf,
  lockLinesOfAccount,
  lockLine,
  findPrepaidPlanId,
  setOrderWaiting,
  stepsOf,
  updateAccountRow,
  updateBalanceRow,
  updateLineRow,
} from './repo';
import { appliedMessage, type Bilingual, type LifecycleMessage } from './texts';

// Public to provisioning (injected, at-once orders) and the month end (month-end orders).

/*
 * A lifecycle order takes effect (docs/decisions/0056-subscription-lifecycle.md): the plan is
 * changed, the numbers become talutíð or leave, or (apply-transfer.ts) a line moves. Called in
 * the transaction that completes the order: by provisioning when it performs `active` on an
 * at-once order, and by the month-end job for an order due at a month start.
 */

const live = (l: PhoneLineRow) => l.status !== 'cancelled';

/** Plan upgrade / downgrade: the account's plan (and the plan of its lines that carry one). */
async function changePlan(tx: Db, order: OrderRow, at: Date): Promise<void> {
  if (!order.accountId || !order.planId) throw new Error(`plan change ${order.id} has no target`);
  const account = await lockAccount(tx, order.accountId);
  if (!account) throw new Error(`plan change ${order.id}: account is gone`);
  const lines = (await lockLinesOfAccount(tx, account.id)).filter(live);
  const fromPlanId = account.planId ?? order.previousPlanId;
  if (account.planId === order.planId) return; // applied already
  const plans = await findPlansByIds(tx, [order.planId, ...(fromPlanId ? [fromPlanId] : [])]);
  const toPlan = plans.find((p) => p.plan.id === order.planId);
  const fromPlan = plans.find((p) => p.plan.id === fromPlanId);
  if (!toPlan) throw new Error(`plan change ${order.id}: plan ${order.planId} is unknown`);
  await updateAccountRow(tx, account.id, { planId: toPlan.plan.id });
  for (const line of lines)
    if (line.planId !== null && !line.isPrepaid)
      await updateLineRow(tx, line.id, { planId: toPlan.plan.id });
  if (order.lifecycleAction === 'plan_upgrade') {
    // This month's data grows by the difference (a downgrade starts with the next month, whose
    // balance the month end makes from the new plan).
    const month = startOfMonth(at).getTime();
    const euAllowance = account.euPackage ? (toPlan.plan.euPackageDataMb ?? null) : null;
    const balances = await lockBalancesOf(
      tx,
      lines.filter((l) => !l.isPrepaid).map((l) => l.id),
    );
    for (const balance of balances) {
      if (balance.periodStart.getTime() !== month) continue;
      await updateBalanceRow(tx, balance.lineId, {
        ...balanceOnNewPlan(
          balance,
          fromPlan?.plan.dataMb ?? toPlan.plan.dataMb,
          toPlan.plan.dataMb,
          euAllowance,
        ),
        updatedAt: at,
      });
    }
  }
  await bumpUserVersions(tx, [
    account.ownerUserId,
    ...lines.flatMap((l) => (l.userId ? [l.userId] : [])),
  ]);
}

/** Closes the account when no line is left on it. */
async function closeWhenEmpty(tx: Db, account: AccountRow, at: Date): Promise<void> {
  const left = (await lockLinesOfAccount(tx, account.id)).filter(live);
  if (left.length === 0 && account.status !== 'cancelled')
    await updateAccountRow(tx, account.id, { status: 'cancelled', statusChangedAt: at });
}

/**
 * Cancel subscription / deactivate plan: each line concerned becomes talutíð with its number
 * kept, on a new prepaid account of its user (the owner's for a line without one); the old
 * account is closed when no line is left on it.
 */
async function toTalutid(tx: Db, order: OrderRow, at: Date): Promise<void> {
  if (!order.accountId) throw new Error(`cancellation ${order.id} has no account`);
  const account = await lockAccount(tx, order.accountId);
  if (!account) throw new Error(`cancellation ${order.id}: account is gone`);
  const lines = (await lockLinesOfAccount(tx, account.id)).filter(
    (l) =>
      live(l) &&
      !l.isPrepaid &&
      (order.lifecycleAction === 'cancel_subscription' || l.id === order.lineId),
  );
  if (account.type === 'prepaid') return;
  const prepaidPlanId = await findPrepaidPlanId(tx);
  if (!prepaidPlanId) throw new Error('no prepaid plan is offered');
  for (const line of lines) {
    const holder = line.userId ?? account.ownerUserId;
    const talutid = await insertAccountRow(tx, {
      ownerUserId: holder,
      type: 'prepaid',
      planId: prepaidPlanId,
      status: 'active',
      euPackage: false,
      createdAt: at,
      statusChangedAt: at,
    });
    await updateLineRow(tx, line.id, {
      accountId: talutid.id,
      planId: prepaidPlanId,
      isPrepaid: true,
      expiresAt: null,
    });
    await ensurePrepaidBalance(tx, line.id, at);
  }
  await closeWhenEmpty(tx, account, at);
  await bumpUserVersions(tx, [
    account.ownerUserId,
    ...lines.flatMap((l) => (l.userId ? [l.userId] : [])),
  ]);
}

/** Delete number: the line is cancelled (its quarantine counts from now). */
async function deleteNumber(tx: Db, order: OrderRow, at: Date): Promise<void> {
  if (!order.lineId) throw new Error(`delete number ${order.id} has no line`);
  const line = await lockLine(tx, order.lineId);
  if (!line) throw new Error(`delete number ${order.id}: line is gone`);
  if (line.status === 'cancelled') return;
  await updateLineRow(tx, line.id, {
    status: 'cancelled',
    statusChangedAt: at,
    expiresAt: null,
  });
  const account = line.accountId ? await lockAccount(tx, line.accountId) : undefined;
  if (account) await closeWhenEmpty(tx, account, at);
  await bumpUserVersions(tx, [
    ...(account ? [account.ownerUserId] : []),
    ...(line.userId ? [line.userId] : []),
  ]);
}

/**
 * Carries out the order's change at `at` (not the order's bookkeeping: see
 * {@link completeLifecycleOrder}). Returns what the customer is told now that it took effect.
 * Safe to call again for an order already applied (the second call changes nothing).
 */
export async function applyLifecycleOrder(
  tx: Db,
  order: OrderRow,
  at: Date,
): Promise<LifecycleMessage> {
  switch (order.lifecycleAction) {
    case 'plan_upgrade':
    case 'plan_downgrade':
      await changePlan(tx, order, at);
      break;
    case 'cancel_subscription':
    case 'deactivate_plan':
      await toTalutid(tx, order, at);
      break;
    // A port-out (ADR 0076): the number has moved, so the line ends as a deleted one does; the
    // commitment and anything unpaid still stand.
    case 'delete_number':
    case 'port_out':
      await deleteNumber(tx, order, at);
      break;
    case 'move_to_own_account':
    case 'move_to_family_account':
    case 'hand_over':
      await applyTransfer(tx, order, at);
      break;
    case null:
      throw new Error(`order ${order.id} is not a lifecycle order`);
  }
  const [plan] = order.planId ? await findPlansByIds(tx, [order.planId]) : [];
  const planName: Bilingual | null = plan ? { fo: plan.plan.nameFo, en: plan.plan.nameEn } : null;
  return appliedMessage({
    action: order.lifecycleAction,
    msisdn: order.msisdn,
    planName,
    effectiveAt: order.effectiveAt ?? at,
    atOnce: true,
  });
}

/**
 * Carries out a locked month-end order and completes it: the change, the `active` step, the
 * notification to the customer who placed it, the change versions. Returns the e-mails to send
 * after the commit.
 */
export async function completeLifecycleOrder(
  tx: Db,
  order: OrderRow,
  at: Date,
  actor: string,
): Promise<PendingEmail[]> {
  const message = await applyLifecycleOrder(tx, order, at);
  const last = (await stepsOf(tx, order.id)).at(-1);
  const stepAt = last && last.at.getTime() >= at.getTime() ? new Date(last.at.getTime() + 1) : at;
  await insertLifecycleStep(tx, { orderId: order.id, step: 'active', at: stepAt, actor });
  await setOrderWaiting(tx, order.id, { provisioningWaitingFor: 'none', provisioningNextAt: null });
  await completeOrder(tx, order.id, stepAt);
  await insertNotifications(tx, [
    {
      userId: order.userId,
      type: 'order_completed',
      params: { phoneNumber: order.msisdn ?? undefined, title: message.title, body: message.body },
      link: `/menu/bilegingar/${order.id}`,
      createdAt: stepAt,
    },
  ]);
  await bumpUserVersions(tx, [order.userId]);
  return [{ userId: order.userId, subject: message.title, body: message.body }];
}

/**
 * The month end's step: claims one lifecycle order due at `at` (SKIP LOCKED: an order another
 * instance holds is left to it) and carries it out with {@link completeLifecycleOrder}. Null
 * when none is due. Call it in a transaction of its own per order; `skip` leaves out orders that
 * failed in this round (`onClaim` names the order claimed, so the caller can skip it then).
 */
export async function claimAndCompleteDueOrder(
  tx: Db,
  at: Date,
  skip: readonly string[] = [],
  onClaim?: (orderId: string) => void,
): Promise<PendingEmail[] | null> {
  const order = await claimDueMonthEndOrder(tx, at, skip);
  if (!order) return null;
  onClaim?.(order.id);
  return completeLifecycleOrder(tx, order, at, 'month_end');
}

/**
 * The month end is not through with this customer yet: a lifecycle order of theirs (or on an
 * account they own) due at `at` is still to be carried out — the monthly charge waits for it,
 * so the month is priced on the plan it begins with.
 */
export function monthEndPendingFor(db: Db, userId: string, at: Date): Promise<boolean> {
  return hasDueMonthEndOrderOf(db, userId, at);
}
