import {
  cancellationEffectiveAt,
  commitmentEndsAt,
  isSmallerPlan,
  planChangeEffectiveAt,
} from '@alda/contract/rules/lifecycle';
import type { Locale } from '@alda/contract/locale';
import type { Order, OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import type { AccountRow } from '../../db/schema/accounts';
import type { OrderRow } from '../../db/schema/orders';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { insertNotifications } from '../notifications/notify';
import { findLiveLine } from '../phone-lines/lines';
import { findOpenOrders } from '../orders/lifecycle';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { findPlansByIds } from '../plans/catalogue';
import { orderPlacedOf, toOrderDtos } from '../provisioning/dto';
import type { PendingEmail } from '../provisioning/service';
import type { SubscriptionService } from '../subscriptions/service';
import { bumpUserVersions } from '../versions/change-versions';
import { placeLifecycleOrder } from './place';
import {
  cancelOrderRow,
  findAccountById,
  findLineById,
  findOrderById,
  lockAccount,
  lockLinesOfAccount,
  lockOrder,
  updateLineRow,
} from './repo';
import { withdrawnMessage } from './texts';

export interface LifecycleChangesDeps {
  db: Db;
  now: () => Date;
  /** Provisioning's step time in seconds: an at-once change is done after one step. */
  stepS: number;
  /** Sends e-mails after the commit (provisioning's sender). */
  sendEmails: (pending: readonly PendingEmail[]) => void;
  /** Picks the current account as GET /api/subscriptions does (DELETE /api/subscriptions). */
  subscriptions: SubscriptionService;
}

const live = (l: PhoneLineRow) => l.status !== 'cancelled';
const CANCELLING = new Set(['cancel_subscription', 'deactivate_plan', 'delete_number']);

/**
 * Plan changes and cancellations (docs/decisions/0056-subscription-lifecycle.md): each is a
 * lifecycle order placed once per Idempotency-Key in one transaction that locks the account,
 * then its lines, and re-checks the rules; and the undo of a change waiting for its month end.
 */
export function createLifecycleChangesService(deps: LifecycleChangesDeps) {
  const { db, now } = deps;

  const notFound = (what: string) => new AppError('NOT_FOUND', { field: 'id', detail: what });

  /** Places once per key; the e-mails go after the commit; answers the order. */
  async function placeOnce(
    purchase: Purchase,
    work: (tx: Db, at: Date) => Promise<{ order: OrderRow; emails: PendingEmail[] }>,
  ): Promise<OrderPlacedResponse> {
    const order = await placeUnpaidOnce(db, purchase, async () => {
      const placed = await db.transaction((tx) => work(tx, now()));
      deps.sendEmails(placed.emails);
      return placed.order;
    });
    return orderPlacedOf(db, order, purchase.locale);
  }

  /**
   * The line `lineId` and its account, locked (account first, then its lines). NOT_FOUND when
   * the line is not in service or not the caller's business; OWNER_ONLY for the number's own
   * user or another member when `ownerOnly`.
   */
  async function lockLineAndAccount(
    tx: Db,
    userId: string,
    lineId: string,
    opts: { ownerOnly: boolean },
  ): Promise<{ line: PhoneLineRow; account: AccountRow; lines: PhoneLineRow[] }> {
    if (!isUuid(lineId)) throw notFound(`no line ${lineId}`);
    const unlocked = await findLineById(tx, lineId);
    if (!unlocked?.accountId || !live(unlocked)) throw notFound(`no line ${lineId}`);
    const account = await lockAccount(tx, unlocked.accountId);
    if (!account || account.status === 'cancelled') throw notFound(`no line ${lineId}`);
    const lines = (await lockLinesOfAccount(tx, account.id)).filter(live);
    const line = lines.find((l) => l.id === lineId);
    if (!line) throw notFound(`no line ${lineId}`);
    if (account.ownerUserId !== userId) {
      const member = lines.some((l) => l.userId === userId);
      if (!member) throw notFound(`no line ${lineId}`);
      if (opts.ownerOnly || line.userId !== userId)
        throw new AppError('OWNER_ONLY', { detail: `account ${account.id} is not the caller's` });
    }
    return { line, account, lines };
  }

  /** The open orders of the account block another change (first undo, then change). */
  async function openOrdersOf(tx: Db, accountId: string): Promise<OrderRow[]> {
    return findOpenOrders(tx, { accountIds: [accountId] });
  }

  /** ALREADY_CANCELLED when a cancellation of `lineIds` waits; ORDER_PROCESSING for others. */
  function refuseOpen(open: readonly OrderRow[], lineIds: readonly string[], accountWide: boolean) {
    const ending = open.find(
      (o) =>
        o.lifecycleAction !== null &&
        CANCELLING.has(o.lifecycleAction) &&
        (o.lifecycleAction === 'cancel_subscription' ||
          accountWide ||
          (o.lineId !== null && lineIds.includes(o.lineId))),
    );
    if (ending)
      throw new AppError('ALREADY_CANCELLED', {
        detail: `order ${ending.id} already ends it (withdraw it first)`,
      });
    if (open.length > 0)
      throw new AppError('ORDER_PROCESSING', {
        detail: `order ${open[0]?.id ?? ''} of the account is still open`,
      });
  }

  /** The latest commitment end of these lines (null when none has one). */
  function commitmentOf(lines: readonly PhoneLineRow[]): Date | null {
    let latest: Date | null = null;
    for (const l of lines) {
      const end = commitmentEndsAt(l.activatedAt);
      if (end && (latest === null || end.getTime() > latest.getTime())) latest = end;
    }
    return latest;
  }

  return {
    /**
     * PATCH /api/subscriptions/{id} `{planId}`: the account of member `id` goes to `planId` —
     * a bigger (or equal) plan at once, a smaller one at the next month start (SPEC §4).
     */
    async changePlan(
      purchase: Purchase,
      lineId: string,
      planId: string,
    ): Promise<OrderPlacedResponse> {
      return placeOnce(purchase, async (tx, at) => {
        const { line, account, lines } = await lockLineAndAccount(tx, purchase.userId, lineId, {
          ownerOnly: true,
        });
        if (account.type === 'prepaid' || line.isPrepaid)
          throw new AppError('PLAN_CHANGE_BLOCKED', { detail: 'a talutíð number has no plan' });
        if (account.status !== 'active' || !account.planId)
          throw new AppError('PLAN_CHANGE_BLOCKED', { detail: 'the account is being set up' });
        const open = await openOrdersOf(tx, account.id);
        if (open.length > 0)
          throw new AppError('PLAN_CHANGE_BLOCKED', {
            detail: `order ${open[0]?.id ?? ''} of the account is still open`,
          });
        const plans = await findPlansByIds(tx, [account.planId, planId]);
        const from = plans.find((p) => p.plan.id === account.planId);
        const to = plans.find((p) => p.plan.id === planId);
        if (!from) throw new Error(`account ${account.id}: plan ${account.planId} is unknown`);
        if (
          !to ||
          !to.plan.isOffered ||
          !to.type.isOffered ||
          to.type.id !== from.type.id ||
          to.type.kind === 'prepaid'
        )
          throw new AppError('PLAN_NOT_AVAILABLE', {
            field: 'planId',
            detail: `plan ${planId} is not offered for a ${from.type.id} account`,
          });
        if (to.plan.id === from.plan.id) throw new AppError('PLAN_UNCHANGED', { field: 'planId' });
        if (account.type === 'family_plan' && to.plan.maxMembers < lines.length)
          throw new AppError('FAMILY_FULL', {
            field: 'planId',
            detail: `${to.plan.id} has ${to.plan.maxMembers} seats, the family ${lines.length} members`,
          });
        const smaller = isSmallerPlan(from.plan, to.plan);
        return placeLifecycleOrder(tx, {
          kind: 'plan_change',
          action: smaller ? 'plan_downgrade' : 'plan_upgrade',
          userId: purchase.userId,
          accountId: account.id,
          lineId: line.id,
          msisdn: line.msisdn,
          planId: to.plan.id,
          previousPlanId: from.plan.id,
          effectiveAt: planChangeEffectiveAt(from.plan, to.plan, at),
          idempotencyKey: purchase.idempotencyKey,
          requestHash: purchase.requestHash,
          now: at,
          stepS: deps.stepS,
          alsoNotify: lines.flatMap((l) => (l.userId ? [l.userId] : [])),
        });
      });
    },

    /**
     * DELETE /api/subscriptions: the owner cancels the current account; every number on it
     * becomes talutíð when it ends (the end of this month, or of the commitment's last month).
     */
    async cancelSubscription(purchase: Purchase, lineQuery?: string): Promise<OrderPlacedResponse> {
      // `?line=` names a number of the account: the caller's own (as in GET), or any number on
      // an account they own (a child's number without a login of its own on its own plan).
      const named = lineQuery ? await findLiveLine(db, lineQuery) : undefined;
      const owned =
        named?.accountId &&
        (await findAccountById(db, named.accountId))?.ownerUserId === purchase.userId
          ? named.accountId
          : null;
      let accountId = owned;
      if (accountId === null) {
        const overview = await deps.subscriptions.overview(purchase.userId, lineQuery);
        const current = overview.currentAccount;
        if (!current) throw new AppError('NOT_FOUND', { detail: 'the caller has no account' });
        if (!overview.isOwner) throw new AppError('OWNER_ONLY');
        accountId = current.id;
      }
      const cancelled = accountId;
      return placeOnce(purchase, async (tx, at) => {
        const account = await lockAccount(tx, cancelled);
        if (!account || account.status === 'cancelled')
          throw new AppError('ALREADY_CANCELLED', { detail: `account ${cancelled} is closed` });
        if (account.ownerUserId !== purchase.userId) throw new AppError('OWNER_ONLY');
        if (account.type === 'prepaid')
          throw new AppError('LINE_IS_PREPAID', { detail: 'a talutíð number has no plan' });
        const lines = (await lockLinesOfAccount(tx, account.id)).filter(live);
        refuseOpen(await openOrdersOf(tx, account.id), [], true);
        if (lines.some((l) => l.status === 'processing'))
          throw new AppError('ORDER_PROCESSING', { detail: 'a number is being set up' });
        const effectiveAt = cancellationEffectiveAt(commitmentOf(lines), at);
        for (const l of lines) await updateLineRow(tx, l.id, { expiresAt: effectiveAt });
        const main =
          lines.find((l) => l.userId === purchase.userId) ??
          lines.find((l) => l.msisdn === lineQuery) ??
          lines[0];
        return placeLifecycleOrder(tx, {
          kind: 'cancellation',
          action: 'cancel_subscription',
          userId: purchase.userId,
          accountId: account.id,
          lineId: null,
          msisdn: main?.msisdn ?? null,
          planId: null,
          previousPlanId: account.planId,
          effectiveAt,
          idempotencyKey: purchase.idempotencyKey,
          requestHash: purchase.requestHash,
          now: at,
          stepS: deps.stepS,
          alsoNotify: lines.flatMap((l) => (l.userId ? [l.userId] : [])),
        });
      });
    },

    /**
     * DELETE /api/subscriptions/deactivate-plan/{id}: the owner takes one number off the plan;
     * it becomes talutíð when it ends.
     */
    async deactivatePlan(purchase: Purchase, lineId: string): Promise<OrderPlacedResponse> {
      return placeOnce(purchase, async (tx, at) => {
        const { line, account } = await lockLineAndAccount(tx, purchase.userId, lineId, {
          ownerOnly: true,
        });
        if (account.type === 'prepaid' || line.isPrepaid)
          throw new AppError('LINE_IS_PREPAID', { detail: `${line.msisdn} is talutíð` });
        if (line.expiresAt)
          throw new AppError('ALREADY_CANCELLED', { detail: `${line.msisdn} is ending` });
        refuseOpen(await openOrdersOf(tx, account.id), [line.id], false);
        if (line.status === 'processing')
          throw new AppError('ORDER_PROCESSING', { detail: `${line.msisdn} is being set up` });
        const effectiveAt = cancellationEffectiveAt(commitmentEndsAt(line.activatedAt), at);
        await updateLineRow(tx, line.id, { expiresAt: effectiveAt });
        return placeLifecycleOrder(tx, {
          kind: 'cancellation',
          action: 'deactivate_plan',
          userId: purchase.userId,
          accountId: account.id,
          lineId: line.id,
          msisdn: line.msisdn,
          planId: null,
          previousPlanId: line.planId ?? account.planId,
          effectiveAt,
          idempotencyKey: purchase.idempotencyKey,
          requestHash: purchase.requestHash,
          now: at,
          stepS: deps.stepS,
          alsoNotify: line.userId ? [line.userId] : [],
        });
      });
    },

    /**
     * DELETE /api/subscriptions/delete-number/{id}: the number leaves us — a subscription's at
     * its end (as a cancellation), a talutíð number at once (its credit forfeited). The owner,
     * or the number's own user for a talutíð number.
     */
    async deleteNumber(purchase: Purchase, lineId: string): Promise<OrderPlacedResponse> {
      return placeOnce(purchase, async (tx, at) => {
        const { line, account } = await lockLineAndAccount(tx, purchase.userId, lineId, {
          ownerOnly: false,
        });
        const talutid = account.type === 'prepaid' || line.isPrepaid;
        if (!talutid && account.ownerUserId !== purchase.userId)
          throw new AppError('OWNER_ONLY', { detail: 'only the owner ends a subscription' });
        refuseOpen(await openOrdersOf(tx, account.id), [line.id], false);
        if (line.status === 'processing')
          throw new AppError('ORDER_PROCESSING', { detail: `${line.msisdn} is being set up` });
        if (line.expiresAt)
          throw new AppError('ALREADY_CANCELLED', { detail: `${line.msisdn} is ending` });
        const effectiveAt = talutid
          ? at
          : cancellationEffectiveAt(commitmentEndsAt(line.activatedAt), at);
        if (!talutid) await updateLineRow(tx, line.id, { expiresAt: effectiveAt });
        return placeLifecycleOrder(tx, {
          kind: 'cancellation',
          action: 'delete_number',
          userId: purchase.userId,
          accountId: account.id,
          lineId: line.id,
          msisdn: line.msisdn,
          planId: null,
          previousPlanId: line.planId ?? account.planId,
          effectiveAt,
          idempotencyKey: purchase.idempotencyKey,
          requestHash: purchase.requestHash,
          now: at,
          stepS: deps.stepS,
          alsoNotify: [account.ownerUserId, ...(line.userId ? [line.userId] : [])],
        });
      });
    },

    /**
     * POST /api/orders/{id}/withdraw: undoes a change still waiting for its month end (the
     * order is cancelled, the numbers no longer end). ORDER_NOT_WAITING once it has run or for
     * a change made at once; NOT_FOUND for someone else's order.
     */
    async withdraw(userId: string, orderId: string, locale: Locale): Promise<Order> {
      if (!isUuid(orderId)) throw notFound(`no order ${orderId}`);
      const pending = await db.transaction(async (tx) => {
        const first = await lockOrder(tx, orderId);
        if (!first || first.lifecycleAction === null) throw notFound(`no order ${orderId}`);
        // The account first, as every change takes it: then the order again.
        const account = first.accountId ? await lockAccount(tx, first.accountId) : undefined;
        const order = await lockOrder(tx, orderId);
        if (!order) throw notFound(`no order ${orderId}`);
        if (order.userId !== userId && account?.ownerUserId !== userId)
          throw notFound(`no order ${orderId}`);
        if (order.isComplete || order.isCancelled || order.provisioningWaitingFor !== 'month_end')
          throw new AppError('ORDER_NOT_WAITING', {
            detail: `order ${order.id} no longer waits for its month end`,
          });
        const at = now();
        await cancelOrderRow(tx, order.id, at);
        const lines = account ? (await lockLinesOfAccount(tx, account.id)).filter(live) : [];
        const ending = lines.filter(
          (l) =>
            l.expiresAt !== null &&
            order.effectiveAt !== null &&
            l.expiresAt.getTime() === order.effectiveAt.getTime() &&
            (order.lifecycleAction === 'cancel_subscription' || l.id === order.lineId),
        );
        for (const l of ending) await updateLineRow(tx, l.id, { expiresAt: null });
        const message = withdrawnMessage(order.lifecycleAction ?? 'plan_downgrade', order.msisdn);
        await insertNotifications(tx, [
          {
            userId: order.userId,
            type: 'subscription',
            params: {
              phoneNumber: order.msisdn ?? undefined,
              title: message.title,
              body: message.body,
            },
            link: `/menu/bilegingar/${order.id}`,
            createdAt: at,
          },
        ]);
        await bumpUserVersions(tx, [
          order.userId,
          ...(account ? [account.ownerUserId] : []),
          ...lines.flatMap((l) => (l.userId ? [l.userId] : [])),
        ]);
        return [{ userId: order.userId, subject: message.title, body: message.body }];
      });
      deps.sendEmails(pending);
      const row = await findOrderById(db, orderId);
      if (!row) throw notFound(`no order ${orderId}`);
      const [dto] = await toOrderDtos(db, [row], locale);
      if (!dto) throw notFound(`no order ${orderId}`);
      return dto;
    },
  };
}

export type LifecycleChangesService = ReturnType<typeof createLifecycleChangesService>;
