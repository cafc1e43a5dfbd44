import type { Locale } from '@alda/contract/locale';
import type { Plan } from '@alda/contract/schemas/plans';
import type { PlanRow, PlanTypeRow } from '../../db/schema/catalog';

/** A name in the caller's language. */
export function localized(row: { nameFo: string; nameEn: string }, locale: Locale): string {
  return locale === 'en' ? row.nameEn : row.nameFo;
}

/** A catalogue plan as the contract describes it (SPEC §3 "Plan"), in the caller's language. */
export function toPlanDto(plan: PlanRow, type: PlanTypeRow, locale: Locale): Plan {
  return {
    planId: plan.id,
    type: type.kind,
    name: localized(plan, locale),
    dataMb: plan.dataMb,
    maxMembers: plan.maxMembers,
    memberPrices: plan.memberPrices.map((entry) => ({ price: entry.price })),
    planTypeName: localized(type, locale),
    euPackage:
      plan.euPackagePriceOere !== null && plan.euPackageDataMb !== null
        ? { price: plan.euPackagePriceOere, dataMb: plan.euPackageDataMb }
        : null,
    commitmentMonths: plan.commitmentMonths,
  };
}
