import type { Locale } from '@alda/contract/locale';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import type { OrderRow } from '../../db/schema/orders';
import { AppError } from '../../errors';
import { toOrderDtos } from '../provisioning/dto';
import { placeSimChange } from '../provisioning/service';
import { findOrderByKey, pickupLocationExists, setOrderIdempotency } from './repo';
import type { SimChangeInput, SimChangePlacer } from './service';

export interface SimChangeDeps {
  db: Db;
  now: () => Date;
  /** PROVISIONING_STEP_S: when the worker takes the order's next step. */
  stepS: number;
}

/**
 * A `sim_change` order placed through provisioning (`placeSimChange`, ADR 0055) in one
 * transaction with its first step and its Idempotency-Key; answered as GET /api/orders/{id}
 * shows it, with its provisioning.
 */
export function createSimChangePlacer(deps: SimChangeDeps): SimChangePlacer {
  const { db } = deps;

  async function placed(row: OrderRow, locale: Locale): Promise<OrderPlacedResponse> {
    const [order] = await toOrderDtos(db, [row], locale);
    if (!order) throw new Error(`order ${row.id} has no DTO`);
    return { order, paymentUrl: null };
  }

  return {
    orderPlaced: placed,

    async placeSimChange(input: SimChangeInput): Promise<OrderPlacedResponse> {
      const { delivery } = input;
      if (
        delivery.kind === 'pickup' &&
        !(await pickupLocationExists(db, delivery.simPickupLocationId))
      )
        throw new AppError('PICKUP_LOCATION_NOT_FOUND', { field: 'simPickupLocationId' });
      try {
        const row = await db.transaction(async (tx) => {
          const order = await placeSimChange(tx, {
            userId: input.userId,
            lineId: input.lineId,
            delivery: delivery.kind,
            pickupLocationId: delivery.kind === 'pickup' ? delivery.simPickupLocationId : null,
            shipping:
              delivery.kind === 'home'
                ? { address: delivery.address, postCode: delivery.postCode, city: delivery.city }
                : null,
            now: deps.now(),
            stepS: deps.stepS,
          });
          return setOrderIdempotency(tx, order.id, input.idempotencyKey, input.requestHash);
        });
        return await placed(row, input.locale);
      } catch (error) {
        // The same key sent twice at once: the other request placed it; answer that order.
        if (uniqueViolationOf(error) !== 'orders_idempotency_key_uq') throw error;
        const earlier = await findOrderByKey(db, input.userId, input.idempotencyKey);
        if (!earlier) throw error;
        if (earlier.requestHash !== input.requestHash)
          throw new AppError('IDEMPOTENCY_KEY_REUSED', { field: 'Idempotency-Key' });
        return placed(earlier, input.locale);
      }
    },
  };
}
