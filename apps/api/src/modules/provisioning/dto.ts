import type { Locale } from '@alda/contract/locale';
import type { Order, OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { OrderProvisioning, SimPickupLocation } from '@alda/contract/schemas/provisioning';
import type { Db } from '../../db/client';
import type { OrderRow } from '../../db/schema/orders';
import type { ProvisioningStepRow, SimPickupLocationRow } from '../../db/schema/provisioning';
import { toOrderDto } from '../orders/dto';
import { findPickupLocations, findSteps } from './repo';
import { PROVISIONED_KINDS, upcomingSteps } from './steps';
import { reasonText } from './texts';

// Public to other modules: orders are answered with their provisioning (GET /api/orders).

/** A pickup shop with its opening hours in `locale`. */
export function toPickupLocationDto(row: SimPickupLocationRow, locale: Locale): SimPickupLocation {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    postCode: row.postCode,
    city: row.city,
    openingHours: locale === 'en' ? row.openingHoursEn : row.openingHoursFo,
  };
}

/**
 * Whether the order is carried out by provisioning: it has steps and a SIM delivery, or it is a
 * lifecycle order (received → active, at once or at a month end: ADR 0056).
 */
export function isProvisioned(row: OrderRow): boolean {
  return (
    (PROVISIONED_KINDS.includes(row.kind) && row.simDelivery !== null) ||
    row.lifecycleAction !== null
  );
}

function provisioningOf(
  row: OrderRow,
  steps: readonly ProvisioningStepRow[],
  shops: ReadonlyMap<string, SimPickupLocationRow>,
  locale: Locale,
): OrderProvisioning | null {
  if (!isProvisioned(row)) return null;
  const shop = row.simPickupLocationId ? shops.get(row.simPickupLocationId) : undefined;
  const waitingFor = row.isCancelled ? 'none' : (row.provisioningWaitingFor ?? 'none');
  return {
    steps: steps.map((s) => ({
      step: s.step,
      at: s.at.toISOString(),
      reason: reasonText(s, locale),
    })),
    upcoming:
      row.isComplete || row.isCancelled || waitingFor === 'none'
        ? []
        : upcomingSteps(
            row,
            steps.map((s) => s.step),
          ),
    waitingFor,
    expectedAt:
      waitingFor === 'none'
        ? null
        : waitingFor === 'month_end'
          ? (row.effectiveAt?.toISOString() ?? null)
          : (row.provisioningNextAt?.toISOString() ?? null),
    // A lifecycle order moves no SIM: the number keeps the card it has.
    delivery: row.simDelivery,
    pickupLocation: shop ? toPickupLocationDto(shop, locale) : null,
    isPorting: row.isPorting,
    portDate: row.portDate?.toISOString() ?? null,
  };
}

/**
 * Orders as the contract describes them, each with its `provisioning` (steps, what comes next,
 * who it waits on) when provisioning carries it out, null otherwise. Reasons in `locale`.
 */
export async function toOrderDtos(
  db: Db,
  rows: readonly OrderRow[],
  locale: Locale,
): Promise<Order[]> {
  const provisioned = rows.filter(isProvisioned);
  const steps = await findSteps(
    db,
    provisioned.map((r) => r.id),
  );
  const shopIds = [
    ...new Set(provisioned.flatMap((r) => (r.simPickupLocationId ? [r.simPickupLocationId] : []))),
  ];
  const shops = new Map((await findPickupLocations(db, shopIds)).map((s) => [s.id, s]));
  return rows.map((row) => ({
    ...toOrderDto(row),
    provisioning: provisioningOf(
      row,
      steps.filter((s) => s.orderId === row.id),
      shops,
      locale,
    ),
  }));
}

/** The answer of a call that placed an order not paid now (sign-up, a new SIM): no card page. */
export async function orderPlacedOf(
  db: Db,
  row: OrderRow,
  locale: Locale,
): Promise<OrderPlacedResponse> {
  const [order] = await toOrderDtos(db, [row], locale);
  if (!order) throw new Error(`order ${row.id} has no DTO`);
  return { order, paymentUrl: null };
}
