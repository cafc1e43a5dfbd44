import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type {
  TransferToFamilyAccountRequest,
  TransferToOwnAccountRequest,
} from '@alda/contract/schemas/subscriptions';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import type { AccountRow } from '../../db/schema/accounts';
import type { OrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { findActiveAgreement } from '../agreements/card-on-file';
import { placeUnpaidOnce, type Purchase } from '../orders/placing';
import { orderPlacedOf } from '../provisioning/dto';
import type { PendingEmail, ProvisioningService } from '../provisioning/service';
import { placeLifecycleOrder } from './place';
import { lockAccounts } from './transfer-repo';
import { findLineById, insertAccountRow, lockLine } from './repo';
import { findLinesOfAccounts, findLiveFamilyAccountOf } from '../subscriptions/accounts';
import {
  lineIdOrNotFound,
  notFound,
  offeredPlan,
  requireFamilySeat,
  requireLineFree,
  requireParty,
} from './transfer-rules';

const ONE_FAMILY_CONSTRAINT = 'accounts_one_family_per_owner_uq';

export interface TransferDeps {
  db: Db;
  now: () => Date;
  provisioning: ProvisioningService;
}

/** The line and the account it is on, locked (account first, then the line). */
async function lockLineAndAccount(
  tx: Db,
  lineId: string,
  alsoLock: readonly string[] = [],
): Promise<{
  line: NonNullable<Awaited<ReturnType<typeof lockLine>>>;
  account: AccountRow;
  locked: AccountRow[];
}> {
  const seen = await findLineById(tx, lineId);
  if (!seen || seen.status === 'cancelled' || !seen.accountId) throw notFound(`no line ${lineId}`);
  const locked = await lockAccounts(tx, [seen.accountId, ...alsoLock]);
  const line = await lockLine(tx, lineId);
  const account = locked.find((a) => a.id === line?.accountId);
  if (!line || line.status === 'cancelled' || !account || account.status === 'cancelled')
    throw notFound(`no line ${lineId}`);
  return { line, account, locked };
}

/**
 * Moving a number between accounts (docs/decisions/0056-subscription-lifecycle.md "Family
 * members"): to an individual plan of the caller's own, or into the caller's family. Each is a
 * `transfer` order placed at once in one transaction with the accounts and the line locked, once
 * per Idempotency-Key; provisioning carries it out (`apply-transfer.ts`).
 */
export function createTransferService(deps: TransferDeps) {
  const { db, now, provisioning } = deps;

  async function placeOnce(
    purchase: Purchase,
    place: (tx: Db, at: Date) => Promise<{ order: OrderRow; emails: PendingEmail[] }>,
  ): Promise<OrderPlacedResponse> {
    const at = now();
    const run = async () => {
      const placed = await db.transaction((tx) => place(tx, at));
      provisioning.sendEmails(placed.emails);
      return placed.order;
    };
    // The same request sent at the same time may have won (the number is busy now): then this
    // one answers its order.
    const order = await placeUnpaidOnce(db, purchase, run).catch((error: unknown) =>
      placeUnpaidOnce(db, purchase, () => Promise.reject(error)),
    );
    return orderPlacedOf(db, order, purchase.locale);
  }

  /** Everyone who hears of a move besides the caller: the account's owner and the line's user. */
  const othersOf = (userId: string, ...ids: (string | null)[]) => [
    ...new Set(ids.filter((id): id is string => id !== null && id !== userId)),
  ];

  return {
    /**
     * PATCH /api/subscriptions/transfer-subscription-to-new-account/{id} `{ planId }`: the line
     * leaves its account onto a new individual account owned by the caller, on `planId` (an
     * offered individual plan). The account owner (a member's number, or the last number of a
     * family: family → individual) or the line's own user (their own number; they pay for it and
     * need a card on file). FAMILY_HAS_MEMBERS when the owner moves their own number off a family
     * that keeps other numbers.
     */
    async moveToOwnAccount(
      lineId: string,
      body: TransferToOwnAccountRequest,
      purchase: Purchase,
    ): Promise<OrderPlacedResponse> {
      const id = lineIdOrNotFound(lineId);
      const { userId } = purchase;
      return placeOnce(purchase, async (tx, at) => {
        const { line, account } = await lockLineAndAccount(tx, id);
        const party = await requireParty(tx, userId, line, account);
        await requireLineFree(tx, line, account);
        const plan = await offeredPlan(tx, body.planId, 'individual_plan', 'planId');
        if (account.type === 'individual_plan' && party.isOwner)
          throw new AppError('PLAN_CHANGE_BLOCKED', {
            detail: `line ${line.id} is on the caller's individual account already: change its plan`,
          });
        if (account.type === 'family_plan' && party.isOwner) {
          // The owner's own number leaves the members behind only as the family's last
          // (family → individual); another number of the owner's may stay on it.
          const rest = (await findLinesOfAccounts(tx, [account.id])).filter(
            (l) => l.id !== line.id,
          );
          const membersStay = rest.some((l) => l.userId !== userId);
          const ownerStays = rest.some((l) => l.userId === userId);
          if (line.userId === userId && membersStay && !ownerStays)
            throw new AppError('FAMILY_HAS_MEMBERS', {
              detail: `family ${account.id} keeps ${rest.length} other numbers`,
            });
        }
        if (!(await findActiveAgreement(tx, userId))) throw new AppError('AGREEMENT_REQUIRED');
        return placeLifecycleOrder(tx, {
          kind: 'transfer',
          action: 'move_to_own_account',
          userId,
          accountId: account.id,
          lineId: line.id,
          msisdn: line.msisdn,
          planId: plan.plan.id,
          previousPlanId: line.planId ?? account.planId,
          effectiveAt: at,
          targetAccountId: null,
          recipientUserId: null,
          idempotencyKey: purchase.idempotencyKey,
          requestHash: purchase.requestHash,
          now: at,
          stepS: provisioning.timing.stepS,
          alsoNotify: othersOf(userId, account.ownerUserId, line.userId),
        });
      });
    },

    /**
     * PATCH /api/subscriptions/transfer-subscription-to-family-account/{id} `{ planInfo? }`: the
     * line joins the caller's family account (SPEC §4 capacity: FAMILY_FULL), or, when the caller
     * has none, a family account of theirs made now on `planInfo.planId` (VALIDATION_FAILED
     * `planInfo` without it). The line's own user or the owner of its individual account.
     */
    async moveToFamily(
      lineId: string,
      body: TransferToFamilyAccountRequest,
      purchase: Purchase,
    ): Promise<OrderPlacedResponse> {
      const id = lineIdOrNotFound(lineId);
      const place = (tx: Db, at: Date) => placeMoveToFamily(tx, at, id, body, purchase);
      try {
        return await placeOnce(purchase, place);
      } catch (error) {
        // Two requests made the caller's family at once: the one that lost joins it.
        if (uniqueViolationOf(error) !== ONE_FAMILY_CONSTRAINT) throw error;
        return placeOnce(purchase, place);
      }
    },
  };

  /** {@link moveToFamily} in its transaction. */
  async function placeMoveToFamily(
    tx: Db,
    at: Date,
    lineId: string,
    body: TransferToFamilyAccountRequest,
    purchase: Purchase,
  ): Promise<{ order: OrderRow; emails: PendingEmail[] }> {
    const { userId } = purchase;
    const existing = await findLiveFamilyAccountOf(tx, userId);
    const { line, account, locked } = await lockLineAndAccount(
      tx,
      lineId,
      existing ? [existing.id] : [],
    );
    const party = await requireParty(tx, userId, line, account);
    if (!party.isLineUser && !(party.isOwner && account.type === 'individual_plan'))
      throw new AppError('OWNER_ONLY', {
        detail: `only the number's own user moves it into their family`,
      });
    let family = existing ? locked.find((a) => a.id === existing.id) : undefined;
    if (family && family.status === 'cancelled') family = undefined;
    if (family?.id === account.id)
      throw new AppError('CONFLICT', {
        detail: `line ${line.id} is on the caller's family already`,
      });
    await requireLineFree(tx, line, account);
    if (!(await findActiveAgreement(tx, userId))) throw new AppError('AGREEMENT_REQUIRED');
    if (family) {
      await requireFamilySeat(tx, family);
    } else {
      if (!body.planInfo)
        throw new AppError('VALIDATION_FAILED', { field: 'planInfo', validationKey: 'REQUIRED' });
      const plan = await offeredPlan(tx, body.planInfo.planId, 'family_plan', 'planInfo.planId');
      if (body.planInfo.euPackage && plan.plan.euPackageDataMb === null)
        throw new AppError('PACKAGE_NOT_AVAILABLE', { field: 'planInfo.euPackage' });
      // Made now, so the seat is taken and a second family cannot be made; it is set up
      // (active) when the number moves onto it.
      family = await insertAccountRow(tx, {
        ownerUserId: userId,
        type: 'family_plan',
        planId: plan.plan.id,
        status: 'processing',
        euPackage: body.planInfo.euPackage,
        createdAt: at,
        statusChangedAt: at,
      });
    }
    return placeLifecycleOrder(tx, {
      kind: 'transfer',
      action: 'move_to_family_account',
      userId,
      accountId: account.id,
      lineId: line.id,
      msisdn: line.msisdn,
      planId: family.planId,
      previousPlanId: line.planId ?? account.planId,
      effectiveAt: at,
      targetAccountId: family.id,
      recipientUserId: null,
      idempotencyKey: purchase.idempotencyKey,
      requestHash: purchase.requestHash,
      now: at,
      stepS: provisioning.timing.stepS,
      alsoNotify: othersOf(userId, account.ownerUserId, line.userId),
    });
  }
}

export type TransferService = ReturnType<typeof createTransferService>;
