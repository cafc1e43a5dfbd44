import { and, eq, ne, sql } from 'drizzle-orm';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { Db } from '../../db/client';
import { lineIsPrepaid, linePlanJoin } from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { lineBalances } from '../../db/schema/balances';
import { extraPackages, plans, type ExtraPackageRow } from '../../db/schema/catalog';
import { phoneLines } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import type { Prepared } from '../orders/placing';

// Public to other modules: who may buy for a number, the order of a package for it, and adding a
// paid package's data to its balance.

/** A package by id, offered or withdrawn (fulfilment of an order placed before a withdrawal). */
export async function findPackageById(db: Db, id: string): Promise<ExtraPackageRow | undefined> {
  const [row] = await db.select().from(extraPackages).where(eq(extraPackages.id, id));
  return row;
}

/**
 * Adds a bought package's data to a line's locked balance of the month: a `data` package to the
 * domestic total and remainder, an `eu_data` package to the EU allowance.
 */
export async function addPackageData(
  db: Db,
  lineId: string,
  kind: ExtraPackageRow['kind'],
  mb: number,
  at: Date,
): Promise<void> {
  if (kind === 'data') {
    await db
      .update(lineBalances)
      .set({
        domesticRemainingMb: sql`${lineBalances.domesticRemainingMb} + ${mb}`,
        domesticTotalMb: sql`${lineBalances.domesticTotalMb} + ${mb}`,
        updatedAt: at,
      })
      .where(eq(lineBalances.lineId, lineId));
    return;
  }
  await db
    .update(lineBalances)
    .set({
      euAllowanceMb: sql`coalesce(${lineBalances.euAllowanceMb}, 0) + ${mb}`,
      updatedAt: at,
    })
    .where(eq(lineBalances.lineId, lineId));
}

/** A number as purchases see it: who may buy for it and what its plan and account allow. */
export interface PurchaseLine {
  lineId: string;
  msisdn: string;
  status: 'active' | 'processing' | 'cancelled';
  /** The number's own user (null: used by the account holder). */
  userId: string | null;
  accountId: string | null;
  ownerUserId: string | null;
  isPrepaid: boolean;
  /** The account has the EU package switched on and the plan offers one. */
  hasEuPackage: boolean;
  /** The owner requires approval of the member's own purchases (ADR 0068). */
  purchaseApproval: boolean;
}

/**
 * Whether `pkg` may be sold for `line` (ADR 0052): offered, no data package for a prepaid
 * number, no EU data without the EU package. Throws PACKAGE_NOT_AVAILABLE otherwise — for a
 * purchase and for a member's request of one alike (ADR 0068).
 */
export function assertPackageForLine(pkg: ExtraPackageRow, line: PurchaseLine): void {
  if (!pkg.isOffered)
    throw new AppError('PACKAGE_NOT_AVAILABLE', {
      field: 'packageId',
      detail: `package ${pkg.id} is withdrawn`,
    });
  if (pkg.kind === 'data' && line.isPrepaid)
    throw new AppError('PACKAGE_NOT_AVAILABLE', {
      field: 'packageId',
      detail: 'data packages are not sold for prepaid numbers',
    });
  if (pkg.kind === 'eu_data' && !line.hasEuPackage)
    throw new AppError('PACKAGE_NOT_AVAILABLE', {
      field: 'packageId',
      detail: 'EU data packages need the EU package on the account',
    });
}

/** The line that is not cancelled with this number, with its account. */
export async function findPurchaseLine(db: Db, msisdn: string): Promise<PurchaseLine | undefined> {
  const [row] = await db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      status: phoneLines.status,
      userId: phoneLines.userId,
      accountId: phoneLines.accountId,
      ownerUserId: accounts.ownerUserId,
      isPrepaid: lineIsPrepaid(),
      hasEuPackage: sql<boolean>`coalesce(${accounts.euPackage} and ${plans.euPackageDataMb} is not null, false)`,
      purchaseApproval: phoneLines.purchaseApproval,
    })
    .from(phoneLines)
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, linePlanJoin())
    .where(and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')));
  return row;
}

/**
 * The `extra_package` order of `pkg` for `line`, as the payments core places it: bought by its
 * user or owner, or paid by the owner for a member's request (`packageRequestId`, ADR 0068).
 */
export function extraPackageOrder(
  pkg: ExtraPackageRow,
  line: PurchaseLine,
  packageRequestId: string | null = null,
): Prepared {
  return {
    order: {
      kind: 'extra_package',
      priceOere: pkg.priceOere,
      accountId: line.accountId,
      lineId: line.lineId,
      msisdn: line.msisdn,
      packageId: pkg.id,
      packageRequestId,
    },
    description: `Alda: ${pkg.nameFo} · ${formatPhoneNumber(line.msisdn)}`,
  };
}
