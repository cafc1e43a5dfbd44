import { COMMITMENT_MONTHS, UNLIMITED_DATA_MB } from '../constants';
import { endOfMonth, faroeDateTime, fromFaroeWallClock } from '../format/date';

/*
 * The life of a subscription after sign-up (SPEC §4 "Subscription lifecycle",
 * docs/decisions/0056-subscription-lifecycle.md) as pure rules, used by the API as the final word
 * and by the app to say in a confirm what will happen and when.
 */

/** What a plan change compares: the plan's price (øre with VAT) and monthly data (MB). */
export interface PlanSize {
  monthlyPriceOere: number;
  dataMb: number;
}

/**
 * SPEC §4: is `to` a smaller plan than `from`? Smaller means cheaper; at the same price, less
 * data. A smaller plan takes effect at month end and deletes the data rollover; a bigger (or
 * equal) one takes effect at once.
 */
export function isSmallerPlan(from: PlanSize, to: PlanSize): boolean {
  if (to.monthlyPriceOere !== from.monthlyPriceOere)
    return to.monthlyPriceOere < from.monthlyPriceOere;
  return to.dataMb < from.dataMb;
}

/** The first instant of the Faroese month after the one containing `now`. */
export function startOfNextMonth(now: Date | string | number): Date {
  return new Date(endOfMonth(now).getTime() + 1);
}

/**
 * When a plan change placed at `now` takes effect (ADR 0056): a bigger plan at once (`now`), a
 * smaller one at the start of the next month, so the customer keeps what the month was bought
 * with.
 */
export function planChangeEffectiveAt(from: PlanSize, to: PlanSize, now: Date): Date {
  return isSmallerPlan(from, to) ? startOfNextMonth(now) : now;
}

/**
 * The data rollover (ADR 0056): what a line carries from one month into the next is what it had
 * left at month end, at most one month of its plan's data; nothing on an unlimited plan, on
 * prepaid (talutíð), or when the line goes to a smaller plan at this month end (SPEC §4 "Going to
 * a smaller plan deletes the data rollover").
 */
export function rolloverInto(
  remainingMb: number,
  planDataMb: number,
  opts: { prepaid: boolean; toSmallerPlan: boolean },
): number {
  if (opts.prepaid || opts.toSmallerPlan) return 0;
  if (planDataMb >= UNLIMITED_DATA_MB || planDataMb <= 0) return 0;
  return Math.max(0, Math.min(Math.trunc(remainingMb), planDataMb));
}

/**
 * What a smaller plan costs the customer in rollover if the month ended now: the data they would
 * otherwise carry into next month. The confirm of a downgrade names it (SPEC §4).
 */
export function rolloverLost(remainingMb: number, planDataMb: number): number {
  return rolloverInto(remainingMb, planDataMb, { prepaid: false, toSmallerPlan: false });
}

/** The Faroese month `months` after the month of `instant`, as its first instant. */
function monthsAfter(instant: Date | string | number, months: number): Date {
  const t = faroeDateTime(instant);
  const index = t.year * 12 + (t.month - 1) + months;
  return fromFaroeWallClock(Math.floor(index / 12), (index % 12) + 1, 1);
}

/**
 * The commitment of SPEC §9 (6 months): the months charged after the free month a line became
 * active in (ADR 0055). It ends with the 6th charged month: the answer is the first instant
 * after it. A line without an activation time (older than provisioning) has no commitment left.
 */
export function commitmentEndsAt(activatedAt: Date | string | number | null): Date | null {
  if (activatedAt === null) return null;
  return monthsAfter(activatedAt, COMMITMENT_MONTHS + 1);
}

/**
 * When a subscription cancelled at `now` ends (SPEC §4 "cancelled and expires at month end"):
 * at the end of this month, or, while the commitment runs (`commitmentEnd`, see
 * {@link commitmentEndsAt}), at the end of its last month. The answer is the first instant after
 * the last day of service.
 */
export function cancellationEffectiveAt(
  commitmentEnd: Date | string | number | null,
  now: Date,
): Date {
  const monthEnd = startOfNextMonth(now);
  if (commitmentEnd === null) return monthEnd;
  const commitment = new Date(commitmentEnd);
  return commitment.getTime() > monthEnd.getTime() ? commitment : monthEnd;
}

/**
 * The monthly charges still owed when a subscription cancelled at `now` ends at
 * {@link cancellationEffectiveAt}: the months after the current one until it ends (the current
 * month is charged as usual). The confirm shows them times the monthly price.
 */
export function monthsStillOwed(commitmentEnd: Date | string | number | null, now: Date): number {
  const ends = cancellationEffectiveAt(commitmentEnd, now);
  let months = 0;
  for (let m = startOfNextMonth(now); m.getTime() < ends.getTime(); m = monthsAfter(m, 1))
    months += 1;
  return months;
}

/** The last day of service of something that ends at `effectiveAt` (shown as DD.MM.YYYY). */
export function lastDayBefore(effectiveAt: Date | string | number): Date {
  return new Date(new Date(effectiveAt).getTime() - 1);
}
