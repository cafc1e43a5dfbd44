import { purchaseNeedsApproval } from '@alda/contract/rules/controls';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { PurchasePackageRequest } from '@alda/contract/schemas/packages';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { placeOnce, type Purchase, type PaymentPlacer } from '../orders/placing';
import {
  assertPackageForLine,
  extraPackageOrder,
  findPackageById,
  findPurchaseLine,
  type PurchaseLine,
} from './package-data';

export interface PackagePurchaseDeps {
  db: Db;
  payments: () => PaymentPlacer;
}

/**
 * Who may buy for a number: its own user, or the owner of its account (a family owner buys for
 * members). Anything else — a stranger's number, a number being set up or one that does not
 * exist — is NUMBER_NOT_FOUND, so the endpoint tells nobody which numbers exist.
 */
export function mayBuyFor(line: PurchaseLine | undefined, userId: string): line is PurchaseLine {
  if (!line || line.status !== 'active') return false;
  return (line.userId ?? line.ownerUserId) === userId || line.ownerUserId === userId;
}

/**
 * POST /api/packages (SPEC §1 "buy extra packages, valid only until month end"; ADR 0052): checks
 * the package and the number, then places an `extra_package` order through the payments core.
 * The data is added when the payment is paid (fulfilment), to the month's balance.
 */
export function createPackagePurchaseService(deps: PackagePurchaseDeps) {
  const { db, payments } = deps;
  return {
    async purchase(
      purchase: Purchase,
      input: PurchasePackageRequest,
    ): Promise<OrderPlacedResponse> {
      return placeOnce(db, payments, {
        ...purchase,
        method: input.payWith,
        prepare: async () => {
          const pkg = await findPackageById(db, input.packageId);
          if (!pkg)
            throw new AppError('NOT_FOUND', {
              field: 'packageId',
              detail: `no package ${input.packageId}`,
            });
          if (!pkg.isOffered)
            throw new AppError('PACKAGE_NOT_AVAILABLE', {
              field: 'packageId',
              detail: `package ${pkg.id} is withdrawn`,
            });
          const line = await findPurchaseLine(db, input.phoneNumber);
          if (!mayBuyFor(line, purchase.userId))
            throw new AppError('NUMBER_NOT_FOUND', { field: 'phoneNumber' });
          assertPackageForLine(pkg, line);
          // The owner requires approval: a member's purchase is a request (ADR 0068).
          if (purchaseNeedsApproval(line, line.ownerUserId === purchase.userId))
            throw new AppError('APPROVAL_REQUIRED', { field: 'phoneNumber' });
          return extraPackageOrder(pkg, line);
        },
      });
    },
  };
}

export type PackagePurchaseService = ReturnType<typeof createPackagePurchaseService>;
