import { endOfMonth, faroeMonth } from '../format/date';

/**
 * The first charge of a new subscription (docs/decisions/0055-provisioning.md): the month a line
 * becomes active is free, and the first charge is the whole next month, taken on its first day
 * (Faroese time). Billing leaves a line out of the month it became active in.
 */
export function firstChargeDate(activatedAt: Date | string | number): Date {
  return new Date(endOfMonth(activatedAt).getTime() + 1);
}

/** True when a line that became active at `activatedAt` is charged for the month of `at`. */
export function isChargedInMonthOf(activatedAt: Date | null, at: Date): boolean {
  return activatedAt === null || faroeMonth(activatedAt) < faroeMonth(at);
}
