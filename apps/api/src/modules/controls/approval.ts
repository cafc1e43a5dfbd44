import type { Db } from '../../db/client';
import type { OrderRow } from '../../db/schema/orders';
import { decidePackageRequest, lockPackageRequest } from './repo';

// Public to other modules: the payments core's fulfilment approves the request an order paid for.

/**
 * The owner's payment for a member's package request is paid (ADR 0068): called by the
 * fulfilment of an `extra_package` order inside the transaction that moves the payment to
 * `paid`, so the package, the money and the approval commit together or not at all. A request
 * declined or withdrawn meanwhile keeps its state (the owner's purchase still stands, as every
 * owner purchase for a member's number does). Answers the users whose view changed.
 */
export async function approvePaidPackageRequest(
  tx: Db,
  order: OrderRow,
  at: Date,
): Promise<string[]> {
  if (!order.packageRequestId) return [];
  const request = await lockPackageRequest(tx, order.packageRequestId);
  if (request?.status !== 'pending') return [];
  await decidePackageRequest(tx, request.id, 'approved', at);
  return [request.requesterUserId, request.approverUserId];
}
