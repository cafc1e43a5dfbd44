import type { LifecycleAction } from '@alda/contract/schemas/orders';
import type { ActionType } from '@alda/contract/schemas/actions';
import type { Db } from '../../db/client';
import type { ActionPayload } from '../../db/schema/actions';
import type { OrderRow } from '../../db/schema/orders';
import { insertActions } from '../actions/log';
import { insertNotifications } from '../notifications/notify';
import { findPlansByIds } from '../plans/catalogue';
import type { PendingEmail } from '../provisioning/service';
import { bumpUserVersions } from '../versions/change-versions';
import {
  findAccountById,
  findLineById,
  findUserNames,
  insertLifecycleOrder,
  insertLifecycleStep,
} from './repo';
import { endsSubscription, placedMessage, type Bilingual } from './texts';

// Public to the lifecycle's own services: every change of a subscription is placed here (ADR 0056).

/** What a lifecycle order changes and when. */
export interface LifecycleOrderInput {
  kind: 'plan_change' | 'transfer' | 'cancellation';
  action: LifecycleAction;
  /** Who places it (it is listed in their GET /api/orders). */
  userId: string;
  /** The account changed. */
  accountId: string | null;
  /** The line changed (null for a whole-account cancellation). */
  lineId: string | null;
  msisdn: string | null;
  /** The plan it goes to. */
  planId: string | null;
  previousPlanId: string | null;
  /** `now` for changes made at once; the first instant of a later month otherwise. */
  effectiveAt: Date;
  targetAccountId?: string | null;
  recipientUserId?: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  now: Date;
  /** Provisioning's step time in seconds (network.stepS): an at-once order is done after it. */
  stepS: number;
  /** Other users told about it (e.g. the member whose line moves). */
  alsoNotify?: string[];
  /** More of the log entry (a port-out's provider, ADR 0076). */
  actionPayload?: ActionPayload;
  /**
   * False when the caller writes the in-app notification of its own (a port-out's `port_out`
   * notification, with the time the number moves, ADR 0076), so the customer gets one, not two.
   * The e-mails are returned all the same.
   */
  notify?: boolean;
}

/** The activity-log entry of an action. */
function actionTypeOf(action: LifecycleAction, isFamily: boolean): ActionType {
  switch (action) {
    case 'plan_upgrade':
    case 'plan_downgrade':
      return 'plan_changed';
    case 'deactivate_plan':
      return isFamily ? 'member_removed' : 'subscription_cancelled';
    case 'cancel_subscription':
    case 'delete_number':
      return 'subscription_cancelled';
    case 'move_to_own_account':
    case 'move_to_family_account':
    case 'hand_over':
      return 'member_moved';
    case 'port_out':
      return 'port_out_accepted';
  }
}

/**
 * Places a lifecycle order in the caller's transaction (the caller has locked the account and
 * checked the rules): the order — waiting on the network for one step when it takes effect now,
 * on the month end otherwise —, its `received` step, the activity-log entry, the in-app
 * notification to the placer (and `alsoNotify`) in both languages naming the number and the day
 * it takes effect (unless `notify` is false), and the change versions. Returns the e-mails to
 * send after the commit.
 */
export async function placeLifecycleOrder(
  tx: Db,
  input: LifecycleOrderInput,
): Promise<{ order: OrderRow; emails: PendingEmail[] }> {
  const { now } = input;
  const atOnce = input.effectiveAt.getTime() <= now.getTime();
  const order = await insertLifecycleOrder(tx, {
    userId: input.userId,
    accountId: input.accountId,
    lineId: input.lineId,
    kind: input.kind,
    msisdn: input.msisdn,
    planId: input.planId,
    previousPlanId: input.previousPlanId,
    lifecycleAction: input.action,
    effectiveAt: input.effectiveAt,
    targetAccountId: input.targetAccountId ?? null,
    recipientUserId: input.recipientUserId ?? null,
    paymentStatus: 'not_required',
    provisioningWaitingFor: atOnce ? 'network' : 'month_end',
    provisioningNextAt: atOnce ? new Date(now.getTime() + input.stepS * 1000) : null,
    createdAt: now,
    idempotencyKey: input.idempotencyKey,
    requestHash: input.requestHash,
  });
  await insertLifecycleStep(tx, {
    orderId: order.id,
    step: 'received',
    at: now,
    actor: 'customer',
  });

  const [plan] = input.planId ? await findPlansByIds(tx, [input.planId]) : [];
  const planName: Bilingual | null = plan ? { fo: plan.plan.nameFo, en: plan.plan.nameEn } : null;
  const account = input.accountId ? await findAccountById(tx, input.accountId) : undefined;
  const line = input.lineId ? await findLineById(tx, input.lineId) : undefined;
  const [lineUser] = line?.userId ? await findUserNames(tx, [line.userId]) : [];
  const type = actionTypeOf(input.action, account?.type === 'family_plan');
  const counterpart =
    input.msisdn && (type === 'member_moved' || type === 'member_removed')
      ? {
          name: lineUser ? `${lineUser.firstname} ${lineUser.lastname}`.trim() : input.msisdn,
          phoneNumber: input.msisdn,
        }
      : undefined;
  await insertActions(tx, [
    {
      userId: input.userId,
      lineId: input.lineId,
      type,
      payload: {
        ...(planName && !endsSubscription(input.action) ? { planName } : {}),
        ...(counterpart ? { counterpart } : {}),
        ...input.actionPayload,
      },
      createdAt: now,
    },
  ]);

  const message = placedMessage({
    action: input.action,
    msisdn: input.msisdn,
    planName,
    effectiveAt: input.effectiveAt,
    atOnce,
  });
  const others = [...new Set(input.alsoNotify ?? [])].filter((id) => id !== input.userId);
  if (input.notify !== false)
    await insertNotifications(
      tx,
      [input.userId, ...others].map((userId) => ({
        userId,
        type: 'subscription' as const,
        params: {
          phoneNumber: input.msisdn ?? undefined,
          title: message.title,
          body: message.body,
        },
        // The placer sees the order in their orders; the others do not.
        link: userId === input.userId ? `/menu/bilegingar/${order.id}` : null,
        createdAt: now,
      })),
    );
  await bumpUserVersions(tx, [
    input.userId,
    ...others,
    ...(account ? [account.ownerUserId] : []),
    ...(line?.userId ? [line.userId] : []),
  ]);
  const emails: PendingEmail[] = [input.userId, ...others].map((userId) => ({
    userId,
    subject: message.title,
    body: message.body,
  }));
  return { order, emails };
}
