import { startOfMonth } from '@alda/contract/format/date';
import type { Account } from '@alda/contract/schemas/subscriptions';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { insertMissingOrders } from '../orders/lifecycle';
import { findPlansByIds } from '../plans/catalogue';
import { initialBuckets } from '../usage/balance';
import { insertMissingBalances, lockBalances } from '../usage/balance-rows';
import { bumpUserVersions } from '../versions/change-versions';
import { lockAccount, setAccountEuPackage, setEuAllowance } from './repo';
import { findLinesOfAccounts } from './accounts';
import type { SubscriptionService } from './service';

export interface EuPackageServiceDeps {
  db: Db;
  now: () => Date;
  subscriptions: SubscriptionService;
}

/**
 * PATCH /api/subscriptions `{ euPackage }` (SPEC §1, §7; ADR 0052): the owner of the current
 * account switches the EU/roaming package on or off. Nothing is charged now — the package is
 * part of the monthly price — but the numbers' EU allowance of the month changes at once. One
 * transaction with the account locked: the account flag, the allowances, an `eu_package` order
 * (no payment, complete) and the log entry. Setting the value it already has changes nothing.
 */
export function createEuPackageService(deps: EuPackageServiceDeps) {
  const { db, now, subscriptions } = deps;
  return {
    async set(userId: string, on: boolean, line?: string): Promise<Account> {
      const before = await subscriptions.overview(userId, line);
      const account = before.currentAccount;
      if (!account) throw new AppError('NOT_FOUND', { detail: 'the caller has no account' });
      if (!before.isOwner) throw new AppError('OWNER_ONLY');
      const [planned] = account.planId ? await findPlansByIds(db, [account.planId]) : [];
      const euDataMb = planned?.plan.euPackageDataMb ?? null;
      if (on && (euDataMb === null || account.type === 'prepaid'))
        throw new AppError('PACKAGE_NOT_AVAILABLE', {
          field: 'euPackage',
          detail: `plan ${account.planId ?? '-'} has no EU package`,
        });
      const at = now();
      await db.transaction(async (tx) => {
        const locked = await lockAccount(tx, account.id);
        if (!locked || locked.euPackage === on) return;
        await setAccountEuPackage(tx, account.id, on);
        const lines = (await findLinesOfAccounts(tx, [account.id])).filter(
          (l) => l.status === 'active',
        );
        const allowance = on ? euDataMb : null;
        await insertMissingBalances(
          tx,
          lines.map((l) => ({
            lineId: l.id,
            periodStart: startOfMonth(at),
            ...initialBuckets(planned?.plan.dataMb ?? 0, allowance),
            updatedAt: at,
          })),
        );
        await lockBalances(
          tx,
          lines.map((l) => l.id),
        );
        await setEuAllowance(
          tx,
          lines.map((l) => l.id),
          allowance,
          at,
        );
        await insertMissingOrders(tx, [
          {
            userId,
            accountId: account.id,
            lineId: lines.find((l) => l.userId === userId)?.id ?? lines[0]?.id ?? null,
            kind: 'eu_package',
            planId: account.planId,
            msisdn: account.currentMember.phoneNumber,
            priceOere: null,
            paymentStatus: 'not_required',
            createdAt: at,
            isComplete: true,
            completedAt: at,
          },
        ]);
        await insertActions(tx, [
          {
            userId,
            type: 'eu_package_changed',
            payload: { enabled: on },
            amountOere: null,
            createdAt: at,
          },
        ]);
        const users = new Set<string>([userId]);
        for (const l of lines) if (l.userId) users.add(l.userId);
        await bumpUserVersions(tx, [...users]);
      });
      const after = await subscriptions.overview(userId, line);
      if (!after.currentAccount) throw new Error('current account vanished after the EU toggle');
      return after.currentAccount;
    },
  };
}

export type EuPackageService = ReturnType<typeof createEuPackageService>;
