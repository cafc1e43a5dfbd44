import type { Locale } from '@alda/contract/locale';
import type { OrderResponse, OrdersResponse } from '@alda/contract/schemas/orders';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { toOrderDtos } from '../provisioning/dto';
import { findOrder, findOrdersOfUser, ownsAccount } from './repo';

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
    async list(userId: string, locale: Locale = 'fo'): Promise<OrdersResponse> {
      // Provisioned orders carry their steps (ADR 0055); reasons in the caller's language.
      return toOrderDtos(deps.db, await findOrdersOfUser(deps.db, userId), locale);
    },

    /**
     * GET /api/orders/{id}: one order the caller may see (placed by them or on an account they
     * own — the same orders as the list); anyone else's, and an unknown id, NOT_FOUND. The HTTP
     * fallback of the payment flow reads `paymentStatus` here.
     */
    async get(userId: string, id: string, locale: Locale = 'fo'): Promise<OrderResponse> {
      const notFound = () => new AppError('NOT_FOUND', { field: 'id', detail: `no order ${id}` });
      if (!isUuid(id)) throw notFound();
      const row = await findOrder(deps.db, id);
      if (!row) throw notFound();
      const visible =
        row.userId === userId ||
        (row.accountId !== null && (await ownsAccount(deps.db, userId, row.accountId)));
      if (!visible) throw notFound();
      const [dto] = await toOrderDtos(deps.db, [row], locale);
      if (!dto) throw notFound();
      return dto;
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
