import { canAddFamilyMember, familyMembersInProcessing } from '@alda/contract/rules/family';
import type { AddMembersResponse, NewFamilyMember } from '@alda/contract/schemas/family-members';
import type { Db } from '../../db/client';
import type { OrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { findActiveAgreement } from '../agreements/card-on-file';
import { insertNotifications } from '../notifications/notify';
import { findOpenOrders } from '../orders/lifecycle';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { findPlansByIds } from '../plans/catalogue';
import { findLinesOfAccounts, findLiveFamilyAccountOf } from '../subscriptions/accounts';
import type { SubscriptionService } from '../subscriptions/service';
import { bumpUserVersions } from '../versions/change-versions';
import { findMemberBatch, lockAccountForMembers } from './add-member-repo';
import { toOrderDtos } from './dto';
import {
  checkLineSetupReferences,
  claimNumber,
  recordNumberFee,
  dropExpiredReservations,
  numberRaceError,
  simOrderFields,
} from './line-setup';
import { insertLine, insertOrder, insertStep } from './repo';
import type { PendingEmail, ProvisioningService } from './service';
import { stepMessage } from './texts';

export interface AddMemberDeps {
  db: Db;
  now: () => Date;
  subscriptions: SubscriptionService;
  /** Provisioning (its step time and e-mails), created after the subscription routes. */
  provisioning: () => ProvisioningService;
}

/** The error field of the `index`-th person added. */
const prefixOf = (index: number) => `addMembers.${index}.`;

/**
 * PATCH /api/subscriptions `{ addMembers }` (SPEC §2 /stovna-familju-lim, §4 "Family capacity";
 * docs/decisions/0056-subscription-lifecycle.md "Family members"): the owner of the current
 * family account adds people to it. Per person an `add_member` order, set up exactly as a
 * sign-up's line (number and SIM: `line-setup.ts`) and provisioned by the worker; the new line
 * has no user of its own and the person's name is on the order. One transaction with the account
 * row locked first, so two requests for the last seat are serialized and exactly one wins.
 */
export function createAddMemberService(deps: AddMemberDeps) {
  const { db, now, subscriptions } = deps;

  async function place(
    tx: Db,
    accountId: string,
    people: readonly NewFamilyMember[],
    purchase: Purchase,
    at: Date,
  ): Promise<{ orders: OrderRow[]; emails: PendingEmail[] }> {
    const { userId } = purchase;
    // 1. The account, locked: the caller's family plan, in service.
    const account = await lockAccountForMembers(tx, accountId);
    if (!account || account.status === 'cancelled')
      throw new AppError('NOT_FOUND', { detail: `no account ${accountId}` });
    if (account.ownerUserId !== userId) throw new AppError('OWNER_ONLY');
    if (account.type !== 'family_plan')
      throw new AppError('PLAN_NOT_AVAILABLE', {
        field: 'addMembers',
        detail: `account ${account.id} is ${account.type}, not a family plan`,
      });
    const open = await findOpenOrders(tx, { accountIds: [account.id] });
    const isProcessing =
      account.status === 'processing' ||
      account.planId === null ||
      open.some((o) => o.isMainSubscription);
    if (isProcessing)
      throw new AppError('ORDER_PROCESSING', { detail: `account ${account.id} is being set up` });
    // A family that ends at a month end takes no one new (ADR 0056).
    if (open.some((o) => o.kind === 'cancellation' && o.lifecycleAction === 'cancel_subscription'))
      throw new AppError('ALREADY_CANCELLED', { detail: `account ${account.id} is cancelled` });
    const [plan] = await findPlansByIds(tx, [account.planId ?? '']);
    if (!plan) throw new Error(`account ${account.id}: plan ${account.planId ?? '-'} is unknown`);
    const lines = await findLinesOfAccounts(tx, [account.id]);
    const isPrepaid = lines.some((l) => l.isPrepaid);

    // 2. A seat for every person (SPEC §4 "Family capacity").
    const members = lines.filter((l) => l.status === 'active').length;
    const processing = familyMembersInProcessing(open, new Set([plan.plan.id])).length;
    for (let i = 0; i < people.length; i += 1) {
      if (
        !canAddFamilyMember(plan.plan.maxMembers, members, processing + i, {
          isProcessing: false,
          isPrepaid,
        })
      )
        throw new AppError('FAMILY_FULL', {
          field: 'addMembers',
          detail: `${plan.plan.maxMembers} seats, ${members} members, ${processing + i} being added`,
        });
    }
    // 3. A way to pay for them.
    if (!(await findActiveAgreement(tx, userId))) throw new AppError('AGREEMENT_REQUIRED');

    // 4. Per person: the number, the line, the order and its step `received`.
    const placed: OrderRow[] = [];
    const emails: PendingEmail[] = [];
    const { stepS } = deps.provisioning().timing;
    for (const [i, person] of people.entries()) {
      const prefix = prefixOf(i);
      await checkLineSetupReferences(tx, person, prefix);
      const claimed = await claimNumber(tx, person, userId, at, prefix);
      const { msisdn } = claimed;
      // Consecutive instants keep the request's people in order (and find them on a retry).
      const createdAt = new Date(at.getTime() + i);
      const line = await insertLine(tx, {
        msisdn,
        userId: null,
        // The member has no login of their own: the line carries their name (ADR 0056).
        holderFirstname: person.firstname,
        holderLastname: person.lastname,
        status: 'processing',
        accountId: account.id,
        planId: plan.plan.id,
        simType: person.eSim ? 'esim' : 'physical',
        isPrepaid: false,
        createdAt,
        statusChangedAt: createdAt,
      });
      await recordNumberFee(tx, line.id, claimed, at);
      const order = await insertOrder(tx, {
        userId,
        accountId: account.id,
        lineId: line.id,
        kind: 'add_member',
        planId: plan.plan.id,
        msisdn,
        memberFirstname: person.firstname,
        memberLastname: person.lastname,
        createdAt,
        // The first order carries the key; a retry answers every order of the request.
        idempotencyKey: i === 0 ? purchase.idempotencyKey : null,
        requestHash: purchase.requestHash,
        ...simOrderFields(person),
        euPackage: account.euPackage,
        provisioningWaitingFor: 'network',
        provisioningNextAt: new Date(createdAt.getTime() + stepS * 1000),
      });
      placed.push(order);
      await insertStep(tx, {
        orderId: order.id,
        step: 'received',
        at: createdAt,
        actor: 'customer',
      });
      const name = `${person.firstname} ${person.lastname}`.trim();
      await insertActions(tx, [
        {
          userId,
          lineId: line.id,
          type: 'member_added',
          payload: { counterpart: { name, phoneNumber: msisdn } },
          createdAt,
        },
      ]);
      const message = stepMessage('received', { kind: 'add_member', msisdn });
      if (message) {
        await insertNotifications(tx, [
          {
            userId,
            type: 'subscription',
            params: { phoneNumber: msisdn, title: message.title, body: message.body },
            link: `/menu/bilegingar/${order.id}`,
            createdAt,
          },
        ]);
        emails.push({ userId, subject: message.title, body: message.body });
      }
    }
    // Everyone on the account sees the members being added.
    await bumpUserVersions(tx, [userId, ...lines.flatMap((l) => (l.userId ? [l.userId] : []))]);
    return { orders: placed, emails };
  }

  return {
    /**
     * Adds `people` to the current account of `userId` (`line` picks it as in GET
     * /api/subscriptions). A repeated Idempotency-Key answers the orders of the first request
     * (IDEMPOTENCY_KEY_REUSED for another body); a lost race on a number answers
     * RESERVATION_EXPIRED or NUMBER_ALREADY_OURS.
     */
    async add(
      people: readonly NewFamilyMember[],
      purchase: Purchase,
      line?: string,
    ): Promise<AddMembersResponse> {
      const { userId } = purchase;
      const at = now();
      const overview = await subscriptions.overview(userId, line);
      // Without a member in service yet (a family still being set up) the caller's own family.
      const accountId =
        overview.currentAccount?.id ?? (await findLiveFamilyAccountOf(db, userId))?.id;
      if (!accountId) throw new AppError('NOT_FOUND', { detail: 'the caller has no account' });
      let first: OrderRow;
      try {
        first = await placeUnpaidOnce(db, purchase, async () => {
          const placed = await db.transaction((tx) => place(tx, accountId, people, purchase, at));
          deps.provisioning().sendEmails(placed.emails);
          const [head] = placed.orders;
          if (!head) throw new Error('no member was added');
          return head;
        });
      } catch (error) {
        const failure = numberRaceError(
          error,
          people.map((setup, i) => ({ setup, prefix: prefixOf(i) })),
        );
        // The same request sent at the same time may have won (its numbers are taken now):
        // then this one answers its orders.
        first = await placeUnpaidOnce(db, purchase, () => Promise.reject(failure)).catch(
          async (refused: unknown) => {
            await dropExpiredReservations(db, refused, people, userId, at);
            throw refused;
          },
        );
      }
      const batch = await findMemberBatch(db, first, people.length);
      return { orders: await toOrderDtos(db, batch, purchase.locale) };
    },
  };
}

export type AddMemberService = ReturnType<typeof createAddMemberService>;
