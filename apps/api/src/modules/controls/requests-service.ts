import { splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import { purchaseNeedsApproval } from '@alda/contract/rules/controls';
import type {
  ApprovePackageRequestRequest,
  CreatePackageRequestRequest,
  PackageRequest,
  PackageRequestsResponse,
} from '@alda/contract/schemas/controls';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import { ONE_PENDING_PACKAGE_REQUEST, type PackageRequestRow } from '../../db/schema/controls';
import type { OrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { insertNotifications } from '../notifications/notify';
import { placeOnce, type PaymentPlacer, type Purchase } from '../orders/placing';
import {
  assertPackageForLine,
  extraPackageOrder,
  findPackageById,
  findPurchaseLine,
} from '../packages/package-data';
import { localized } from '../plans/dto';
import { bumpUserVersions } from '../versions/change-versions';
import {
  decidePackageRequest,
  findOpenOrderOfRequest,
  findOrdersOfRequests,
  findPackageRequest,
  findPackageRequestByKey,
  findPendingPackageRequest,
  findPendingPackageRequestsOf,
  findRequestFacts,
  insertPackageRequest,
  lockPackageRequest,
} from './repo';

export interface PackageRequestServiceDeps {
  db: Db;
  now: () => Date;
  payments: () => PaymentPlacer;
}

const notFound = () => new AppError('NOT_FOUND', { detail: 'no such package request' });

/**
 * Package requests (issue 16.3, docs/decisions/0068-owner-controls.md): a member whose owner
 * requires approval asks instead of buying; the owner approves by buying the package for the
 * member's number through the payments core (the request is approved when that payment is paid,
 * in the fulfilment transaction) or declines; the member may withdraw while nothing is being
 * paid. Only the member who asked and the owner who decides see a request (anyone else 404).
 */
export function createPackageRequestService(deps: PackageRequestServiceDeps) {
  const { db, now, payments } = deps;

  async function toDtos(
    rows: readonly PackageRequestRow[],
    userId: string,
    locale: Locale,
  ): Promise<PackageRequest[]> {
    const [facts, orderOf] = await Promise.all([
      findRequestFacts(db, rows),
      findOrdersOfRequests(
        db,
        rows.map((r) => r.id),
      ),
    ]);
    return rows.flatMap((row) => {
      const f = facts.get(row.id);
      if (!f) return [];
      const order: OrderRow | undefined = orderOf.get(row.id);
      return [
        {
          id: row.id,
          status: row.status,
          phoneNumber: f.msisdn,
          lineId: f.lineId,
          requester: { firstname: f.firstname, lastname: f.lastname },
          package: {
            id: f.pkg.id,
            kind: f.pkg.kind,
            name: localized(f.pkg, locale),
            dataMb: f.pkg.dataMb,
            price: splitVat(f.pkg.priceOere),
          },
          isApprover: row.approverUserId === userId,
          orderId: order && !order.isCancelled ? order.id : null,
          createdAt: row.createdAt.toISOString(),
          decidedAt: row.decidedAt?.toISOString() ?? null,
        },
      ];
    });
  }

  async function one(row: PackageRequestRow, userId: string, locale: Locale) {
    const [dto] = await toDtos([row], userId, locale);
    if (!dto) throw new Error(`package request ${row.id} without its line or package`);
    return dto;
  }

  /** The request when `userId` asked or decides it; NOT_FOUND otherwise (no probing). */
  function visibleTo(row: PackageRequestRow | undefined, userId: string): PackageRequestRow {
    if (!row || (row.requesterUserId !== userId && row.approverUserId !== userId)) throw notFound();
    return row;
  }

  async function createOnce(
    userId: string,
    input: CreatePackageRequestRequest,
    idempotencyKey: string | null,
  ): Promise<PackageRequestRow> {
    const pkg = await findPackageById(db, input.packageId);
    if (!pkg)
      throw new AppError('NOT_FOUND', {
        field: 'packageId',
        detail: `no package ${input.packageId}`,
      });
    const line = await findPurchaseLine(db, input.phoneNumber);
    // Only the number's own user asks, for a number in service on someone else's account.
    if (!line || line.status !== 'active' || line.userId !== userId || !line.ownerUserId)
      throw new AppError('NUMBER_NOT_FOUND', { field: 'phoneNumber' });
    assertPackageForLine(pkg, line);
    // Approval switched off meanwhile (or the caller owns the account): buy it instead.
    if (!purchaseNeedsApproval(line, line.ownerUserId === userId))
      throw new AppError('CONFLICT', { detail: 'purchases on this number need no approval' });
    const ownerUserId = line.ownerUserId;
    const pending = await findPendingPackageRequest(db, line.lineId, pkg.id);
    if (pending) return pending;
    const at = now();
    return db.transaction(async (tx) => {
      const row = await insertPackageRequest(tx, {
        lineId: line.lineId,
        packageId: pkg.id,
        requesterUserId: userId,
        approverUserId: ownerUserId,
        createdAt: at,
        idempotencyKey,
      });
      const [facts] = (await findRequestFacts(tx, [row])).values();
      await insertNotifications(tx, [
        {
          userId: ownerUserId,
          type: 'package_request',
          params: {
            // The owner sees the family's names (SPEC §6), whatever the phone book says.
            name: facts ? `${facts.firstname} ${facts.lastname}`.trim() : null,
            phoneNumber: line.msisdn,
            dataMb: pkg.dataMb,
            packageName: { fo: pkg.nameFo, en: pkg.nameEn },
          },
          link: '/',
          createdAt: at,
        },
      ]);
      await bumpUserVersions(tx, [userId, ownerUserId]);
      return row;
    });
  }

  return {
    /** GET /api/package-requests: pending requests the caller made or decides, oldest first. */
    async pending(userId: string, locale: Locale): Promise<PackageRequestsResponse> {
      return toDtos(await findPendingPackageRequestsOf(db, userId), userId, locale);
    },

    async get(userId: string, id: string, locale: Locale): Promise<PackageRequest> {
      if (!isUuid(id)) throw notFound();
      return one(visibleTo(await findPackageRequest(db, id), userId), userId, locale);
    },

    /**
     * The member asks. A retry with the same `Idempotency-Key`, and a second ask for a package
     * already pending on the number, answer the pending request (one notification to the owner).
     */
    async create(
      userId: string,
      input: CreatePackageRequestRequest,
      locale: Locale,
      idempotencyKey?: string,
    ): Promise<PackageRequest> {
      if (idempotencyKey) {
        const earlier = await findPackageRequestByKey(db, userId, idempotencyKey);
        if (earlier) return one(earlier, userId, locale);
      }
      try {
        return await one(await createOnce(userId, input, idempotencyKey ?? null), userId, locale);
      } catch (error) {
        const violated = uniqueViolationOf(error);
        if (violated === 'package_requests_idempotency_uq' && idempotencyKey) {
          const earlier = await findPackageRequestByKey(db, userId, idempotencyKey);
          if (earlier) return one(earlier, userId, locale);
        }
        if (violated === ONE_PENDING_PACKAGE_REQUEST) {
          // Two asks at once for the same package: the other one won.
          const line = await findPurchaseLine(db, input.phoneNumber);
          const pending =
            line && (await findPendingPackageRequest(db, line.lineId, input.packageId));
          if (pending) return one(pending, userId, locale);
        }
        throw error;
      }
    },

    /**
     * The owner approves: buys the package for the member's number with the owner's own payment,
     * through the payments core (`placeOnce`: Idempotency-Key, order + payment in one
     * transaction, the provider outside it). While an order for the request is still open, any
     * approval answers that order (a double tap on two devices pays once: the unique index of
     * one live order per request decides a race). The request turns approved when the payment
     * is paid (`approval.ts`, in fulfilment).
     */
    async approve(
      purchase: Purchase,
      id: string,
      input: ApprovePackageRequestRequest,
    ): Promise<OrderPlacedResponse> {
      if (!isUuid(id)) throw notFound();
      return placeOnce(db, payments, {
        ...purchase,
        method: input.payWith,
        prepare: async () => {
          const request = visibleTo(await findPackageRequest(db, id), purchase.userId);
          if (request.approverUserId !== purchase.userId)
            throw new AppError('FORBIDDEN', { detail: 'only the account owner approves' });
          if (request.status !== 'pending')
            throw new AppError('CONFLICT', { detail: `package request is ${request.status}` });
          const open = await findOpenOrderOfRequest(db, request.id);
          if (open) return { open };
          const [facts] = (await findRequestFacts(db, [request])).values();
          const pkg = await findPackageById(db, request.packageId);
          const line = facts && (await findPurchaseLine(db, facts.msisdn));
          // The number left the owner's account, or ended, since it was asked for.
          if (!pkg || !line || line.lineId !== request.lineId || line.status !== 'active')
            throw new AppError('CONFLICT', { detail: 'the number is no longer in service' });
          if (line.ownerUserId !== purchase.userId)
            throw new AppError('CONFLICT', { detail: 'the number is on another account now' });
          assertPackageForLine(pkg, line);
          return extraPackageOrder(pkg, line, request.id);
        },
      });
    },

    /**
     * DELETE: the owner declines (the member is told) or the member withdraws; only while
     * pending (else CONFLICT). The member cannot withdraw while the owner's payment for it is
     * open — the owner is paying for it right now.
     */
    async remove(userId: string, id: string, locale: Locale): Promise<PackageRequest> {
      if (!isUuid(id)) throw notFound();
      const at = now();
      const row = await db.transaction(async (tx) => {
        const request = visibleTo(await lockPackageRequest(tx, id), userId);
        if (request.status !== 'pending')
          throw new AppError('CONFLICT', { detail: `package request is ${request.status}` });
        const declining = request.approverUserId === userId;
        if (!declining && (await findOpenOrderOfRequest(tx, request.id)))
          throw new AppError('CONFLICT', { detail: 'the owner is paying for it' });
        const decided = await decidePackageRequest(
          tx,
          id,
          declining ? 'declined' : 'withdrawn',
          at,
        );
        if (declining) {
          const [facts] = (await findRequestFacts(tx, [request])).values();
          if (facts)
            await insertNotifications(tx, [
              {
                userId: request.requesterUserId,
                type: 'package_request_declined',
                params: {
                  phoneNumber: facts.msisdn,
                  dataMb: facts.pkg.dataMb,
                  packageName: { fo: facts.pkg.nameFo, en: facts.pkg.nameEn },
                },
                link: '/keyp-pakka',
                createdAt: at,
              },
            ]);
        }
        await bumpUserVersions(tx, [request.requesterUserId, request.approverUserId]);
        return decided;
      });
      return one(row, userId, locale);
    },
  };
}

export type PackageRequestService = ReturnType<typeof createPackageRequestService>;
