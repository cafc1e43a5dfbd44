import { formatMonth } from '@alda/contract/format/date';
import { splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import { memberPriceAt } from '@alda/contract/rules/family';
import { isChargedInMonthOf } from '@alda/contract/rules/first-charge';
import type { MonthlyPriceLine } from '@alda/contract/schemas/billing';
import { isPrepaidLine, planIdOfLine } from '../../db/line-facts';
import type { AccountRow } from '../../db/schema/accounts';
import type { PlanRow } from '../../db/schema/catalog';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import type { ExtraCharge } from './extras';

/** One account the caller owns, with its plans and its numbers in service in price order. */
export interface BilledAccount {
  account: AccountRow;
  /** Plans by id (the account's and its lines'). */
  plans: ReadonlyMap<string, PlanRow>;
  /** Numbers in service, the owner's own first, then by age (the order of memberPrices). */
  lines: readonly PhoneLineRow[];
  /**
   * The extra lines owed (`extras.ts`): one-off prices of easy numbers among `lines` (ADR 0077)
   * and past months' roaming charges of the account's numbers (ADR 0078), not charged yet.
   */
  extras?: readonly ExtraCharge[];
}

const EU_PACKAGE_NAME: Record<Locale, string> = { fo: 'ES-pakki', en: 'EU package' };
const MEMBER: Record<Locale, string> = { fo: 'familjulimur', en: 'family member' };
const PREPAID: Record<Locale, string> = { fo: 'Talutíð', en: 'Prepaid' };
const NUMBER_FEE: Record<Locale, string> = {
  fo: 'Lætt nummar, eingangsgjald',
  en: 'Easy number, one-off price',
};
/** A past month's roaming charges: 'Kostnaður uttanlands í mai 2026' (the month of the use). */
const ROAMING: Record<Locale, (month: string) => string> = {
  fo: (month) => `Kostnaður uttanlands í ${formatMonth(month, 'fo')}`,
  en: (month) => `Charges abroad in ${formatMonth(month, 'en')}`,
};

/** The line of an extra charge on the monthly price and the receipt. */
function extraLine(extra: ExtraCharge, locale: Locale): Omit<MonthlyPriceLine, 'price'> {
  return extra.kind === 'number_fee'
    ? { phoneNumber: extra.msisdn, kind: 'number_fee', description: NUMBER_FEE[locale] }
    : { phoneNumber: extra.msisdn, kind: 'roaming', description: ROAMING[locale](extra.month) };
}

const planName = (plan: PlanRow, locale: Locale) => (locale === 'en' ? plan.nameEn : plan.nameFo);

/**
 * The monthly price lines of the caller's own accounts (ADR 0052): a family plan's numbers at
 * `memberPrices[position]` (SPEC §4, capped at the last entry), an individual plan at its monthly
 * price, a prepaid number at 0 (it is paid by top-ups), and per account with the EU package one
 * line at the plan's EU package price; then the extra lines not charged yet, per number: the
 * one-off price of an easy number (ADR 0077: with the line's first payment) and each past month's
 * roaming charges (ADR 0078: with the next payment after the month) — a number no longer charged
 * for (cancelled) last. Prices are øre with VAT, split with `splitVat`.
 */
export function monthlyPriceLines(accounts: readonly BilledAccount[], locale: Locale) {
  const lines: MonthlyPriceLine[] = [];
  let totalOere = 0;
  const add = (line: Omit<MonthlyPriceLine, 'price'>, oere: number) => {
    lines.push({ ...line, price: splitVat(oere) });
    totalOere += oere;
  };
  for (const { account, plans, lines: numbers, extras = [] } of accounts) {
    const accountPlan = account.planId ? plans.get(account.planId) : undefined;
    numbers.forEach((number, position) => {
      const plan = plans.get(planIdOfLine(number, account) ?? '');
      if (isPrepaidLine(number, account) || !plan) {
        add({ phoneNumber: number.msisdn, kind: 'plan', description: PREPAID[locale] }, 0);
        return;
      }
      if (account.type === 'family_plan') {
        const family = accountPlan ?? plan;
        add(
          {
            phoneNumber: number.msisdn,
            kind: position === 0 ? 'plan' : 'member',
            description:
              position === 0
                ? planName(family, locale)
                : `${planName(family, locale)}, ${MEMBER[locale]}`,
          },
          memberPriceAt(family.memberPrices, position),
        );
        return;
      }
      add(
        { phoneNumber: number.msisdn, kind: 'plan', description: planName(plan, locale) },
        plan.monthlyPriceOere,
      );
    });
    const first = numbers[0];
    if (
      account.euPackage &&
      first &&
      accountPlan?.euPackagePriceOere !== null &&
      accountPlan?.euPackagePriceOere !== undefined &&
      account.type !== 'prepaid'
    )
      add(
        { phoneNumber: first.msisdn, kind: 'eu_package', description: EU_PACKAGE_NAME[locale] },
        accountPlan.euPackagePriceOere,
      );
    const order = new Map(numbers.map((n, i) => [n.id, i]));
    const rank = (e: ExtraCharge) => order.get(e.lineId) ?? numbers.length;
    [...extras]
      .sort(
        (a, b) =>
          rank(a) - rank(b) ||
          a.msisdn.localeCompare(b.msisdn) ||
          Number(a.kind === 'roaming') - Number(b.kind === 'roaming') ||
          (a.kind === 'roaming' && b.kind === 'roaming' ? a.month.localeCompare(b.month) : 0),
      )
      .forEach((extra) => add(extraLine(extra, locale), extra.oere));
  }
  return { lines, total: splitVat(totalOere) };
}

/**
 * Numbers charged for the month of `at`, in price order: the owner's own number first, then by
 * age. A number that became active in that month is not charged for it (its first charge is the
 * next month, ADR 0055 `isChargedInMonthOf`).
 */
export function inPriceOrder(
  account: AccountRow,
  lines: readonly PhoneLineRow[],
  at: Date,
): PhoneLineRow[] {
  return lines
    .filter(
      (l) =>
        l.accountId === account.id &&
        l.status === 'active' &&
        isChargedInMonthOf(l.activatedAt, at),
    )
    .sort(
      (a, b) =>
        Number(b.userId === account.ownerUserId) - Number(a.userId === account.ownerUserId) ||
        a.createdAt.getTime() - b.createdAt.getTime() ||
        a.id.localeCompare(b.id),
    );
}
