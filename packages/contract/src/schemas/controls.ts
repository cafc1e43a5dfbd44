import { z } from 'zod/mini';
import { phoneNumber, phoneNumberInput } from '../rules/phone';
import { id, isoDateTime, mb, priceBreakdown } from './common';
import { packageKind } from './packages';
import { paymentMethod } from './orders';

/**
 * What the account owner has set for one member's number (issue 16.3, ADR 0068): mobile data
 * paused through the network, and extra-package purchases by the member needing the owner's
 * approval. Both off for a number nobody has touched.
 */
export const lineControls = z.object({
  /** The number's mobile data is barred in the network; calls and SMS still work. */
  dataPaused: z.boolean(),
  /** When the owner paused it; null while data runs. */
  dataPausedAt: z.nullable(isoDateTime),
  /** The member's own purchases of extra packages become requests to the owner. */
  purchaseApproval: z.boolean(),
});
export type LineControls = z.infer<typeof lineControls>;

/** The controls of a number nobody has set (and of answers older than issue 16.3). */
export const NO_LINE_CONTROLS: LineControls = {
  dataPaused: false,
  dataPausedAt: null,
  purchaseApproval: false,
};

/**
 * PATCH /api/subscriptions/{id}/controls: the owner switches one or both controls of a member's
 * number. Setting what is already set changes nothing (a double tap is harmless). An empty body
 * is refused: there is nothing to do.
 */
export const updateLineControlsRequest = z
  .strictObject({ dataPaused: z.optional(z.boolean()), purchaseApproval: z.optional(z.boolean()) })
  .check(
    z.superRefine((value, ctx) => {
      if (value.dataPaused === undefined && value.purchaseApproval === undefined)
        ctx.addIssue({ code: 'custom', message: 'REQUIRED', path: ['dataPaused'] });
    }),
  );
export type UpdateLineControlsRequest = z.output<typeof updateLineControlsRequest>;

/**
 * Where a package request stands: pending until the owner approves (their payment of it went
 * through) or declines it, or the member withdraws it.
 */
export const packageRequestStatus = z.enum(['pending', 'approved', 'declined', 'withdrawn']);
export type PackageRequestStatus = z.infer<typeof packageRequestStatus>;

/** A member's request that the owner buys an extra package for the member's number. */
export const packageRequest = z.object({
  id,
  status: packageRequestStatus,
  /** The member's number the package is for. */
  phoneNumber,
  /** Subscription id of that number (the owner's family member screen). */
  lineId: id,
  /** Who asks: the member's name as the family sees it. */
  requester: z.object({ firstname: z.string(), lastname: z.string() }),
  package: z.object({ id, kind: packageKind, name: z.string(), dataMb: mb, price: priceBreakdown }),
  /** True when the caller is the owner who decides; false for the member who asked. */
  isApprover: z.boolean(),
  /**
   * The owner's order for it, once the owner has started paying (null before). The request is
   * approved when that order's payment is paid.
   */
  orderId: z.nullable(id),
  createdAt: isoDateTime,
  decidedAt: z.nullable(isoDateTime),
});
export type PackageRequest = z.infer<typeof packageRequest>;

/** GET /api/package-requests: pending requests to and from the caller, oldest first. */
export const packageRequestsResponse = z.array(packageRequest);
export type PackageRequestsResponse = z.infer<typeof packageRequestsResponse>;

/**
 * POST /api/package-requests: the member asks the owner for a package on their own number.
 * Send an `Idempotency-Key` header; a second request for the same package while one is pending
 * answers the pending one.
 */
export const createPackageRequestRequest = z.strictObject({
  packageId: id,
  phoneNumber: phoneNumberInput,
});
export type CreatePackageRequestRequest = z.output<typeof createPackageRequestRequest>;

/**
 * POST /api/package-requests/{id}/approve: the owner buys the package for the member's number,
 * through the normal payment (card page or card on file). Answer: orderPlacedResponse.
 */
export const approvePackageRequestRequest = z.strictObject({
  payWith: z._default(paymentMethod, 'card'),
});
export type ApprovePackageRequestRequest = z.output<typeof approvePackageRequestRequest>;
