import type { OrdersResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import { toOrderDto } from './dto';
import { findOrdersOfUser } from './repo';

export interface OrderServiceDeps {
  db: Db;
}

/** Orders (SPEC §3 "Order", §7 GET orders). */
export function createOrderService(deps: OrderServiceDeps) {
  return {
    /**
     * The caller's orders and those on accounts they own, newest first — cancelled ones
     * included: hiding them is the app's rule (`visibleOrders`, SPEC §3), and the backup main
     * order (`backupMainOrder`) is picked from the same list.
     */
    async list(userId: string): Promise<OrdersResponse> {
      return (await findOrdersOfUser(deps.db, userId)).map(toOrderDto);
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
