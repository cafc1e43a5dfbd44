import { paymentReturnPath } from '@alda/contract/schemas/orders';

/**
 * Paths of the payment screens (SPEC §2 does not show them; ours, in Faroese). The status path is
 * the contract's return path, so the provider's hosted card page and the app agree on it.
 */
export const PAYMENT_PATHS = {
  /** Live status of one order's payment (SPEC §4 "Payment flow"): `/betaling/:orderId`. */
  status: (orderId: string) => paymentReturnPath(orderId),
  statusPattern: 'betaling/:orderId',
  /** Buy an extra package (SPEC §1), optionally for a given line: `/keyp-pakka?nummar=…`. */
  buyPackage: '/keyp-pakka',
  /** Top up a prepaid (talutíð) line (SPEC §1). */
  topUp: '/fyll-uppa',
  /** The package screen with a line chosen (an owner buying for a family member). */
  buyPackageFor: (phoneNumber: string) =>
    `/keyp-pakka?${new URLSearchParams({ nummar: phoneNumber }).toString()}`,
  /** The top-up screen with a prepaid line chosen. */
  topUpFor: (phoneNumber: string) =>
    `/fyll-uppa?${new URLSearchParams({ nummar: phoneNumber }).toString()}`,
} as const;
