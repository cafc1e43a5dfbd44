import { z } from 'zod/mini';
import { phoneNumberInput } from '../rules/phone';
import { id, isoDateTime, mb, priceBreakdown } from './common';
import { paymentMethod } from './orders';

/** What an extra package adds. */
export const packageKind = z.enum(['data', 'eu_data']);
export type PackageKind = z.infer<typeof packageKind>;

/**
 * An extra package for sale (GET /api/packages, GET /api/packages/{id}). Packages are valid only
 * until month end (SPEC §1): `validUntil` is the end of the current month in Atlantic/Faroe.
 */
export const packageOffer = z.object({
  id,
  kind: packageKind,
  /** Display name in the requested language, e.g. '5 GB'. */
  name: z.string(),
  dataMb: mb,
  price: priceBreakdown,
  validUntil: isoDateTime,
});
export type PackageOffer = z.infer<typeof packageOffer>;

/** GET /api/packages. */
export const packagesResponse = z.array(packageOffer);
export type PackagesResponse = z.infer<typeof packagesResponse>;

/**
 * POST /api/packages: buy a package for one of the caller's numbers (own or, for owners, a family
 * member's). Send an `Idempotency-Key` header. Answer: orderPlacedResponse.
 */
export const purchasePackageRequest = z.object({
  packageId: id,
  phoneNumber: phoneNumberInput,
  payWith: z._default(paymentMethod, 'card'),
});
export type PurchasePackageRequest = z.output<typeof purchasePackageRequest>;
