import { splitVat } from '@alda/contract/format/money';
import type { Order } from '@alda/contract/schemas/orders';
import type { OrderRow } from '../../db/schema/orders';

/** An order as the contract describes it (SPEC §3 "Order"); amounts split into net and VAT. */
export function toOrderDto(row: OrderRow): Order {
  const memberName = [row.memberFirstname, row.memberLastname].filter(Boolean).join(' ');
  return {
    id: row.id,
    kind: row.kind,
    isComplete: row.isComplete,
    isCancelled: row.isCancelled,
    isMainSubscription: row.isMainSubscription,
    planId: row.planId,
    phoneNumber: row.msisdn,
    price: row.priceOere === null ? null : splitVat(row.priceOere),
    paymentStatus: row.paymentStatus,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    memberName: memberName === '' ? null : memberName,
    packageId: row.packageId,
    lineId: row.lineId,
    lifecycle:
      row.lifecycleAction === null
        ? null
        : {
            action: row.lifecycleAction,
            effectiveAt: (row.effectiveAt ?? row.createdAt).toISOString(),
            fromPlanId: row.previousPlanId,
            canWithdraw:
              !row.isComplete && !row.isCancelled && row.provisioningWaitingFor === 'month_end',
          },
  };
}
