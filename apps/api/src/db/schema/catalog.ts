import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { PackageKind } from '@alda/contract/schemas/packages';
import type { PlanType } from '@alda/contract/schemas/plans';

/*
 * The product catalogue (TM Forum TMF620 Product Catalog): what the provider sells. Ids are
 * stable readable slugs ('family-20'), because orders, lines and the app refer to them for years
 * and a catalogue is edited by people. Names come in both languages; the API answers in the
 * caller's. Money is integer øre with VAT, data integer MB (1024 per GB, ≥ 1,024,000 unlimited).
 */

/** Kinds of plan (contract `planType`); only `import type` from the contract here (drizzle-kit). */
export const PLAN_KINDS = [
  'individual_plan',
  'family_plan',
  'prepaid',
] as const satisfies readonly PlanType[];
export type PlanKind = (typeof PLAN_KINDS)[number];

/** A family of plans shown together (SPEC §3 "Plan type"), e.g. 'Familja'. */
export const planTypes = pgTable(
  'plan_types',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: PLAN_KINDS }).notNull(),
    nameFo: text('name_fo').notNull(),
    nameEn: text('name_en').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Withdrawn types stay for the lines that still have them but are no longer offered. */
    isOffered: boolean('is_offered').notNull().default(true),
  },
  (t) => [
    check('plan_types_kind', sql`${t.kind} in ('individual_plan', 'family_plan', 'prepaid')`),
  ],
);

/** One member price entry (SPEC §4): øre with VAT. */
export interface MemberPriceJson {
  price: number;
}

/**
 * A plan (TMF620 product offering with its price): data per month, the monthly price, and for
 * family plans how many members it takes and what each costs. `member_prices[0]` is the plan's
 * own price (the first member), later entries the price of each further member; past the end the
 * last entry applies (SPEC §4).
 */
export const plans = pgTable(
  'plans',
  {
    id: text('id').primaryKey(),
    planTypeId: text('plan_type_id')
      .notNull()
      .references(() => planTypes.id),
    nameFo: text('name_fo').notNull(),
    nameEn: text('name_en').notNull(),
    /** Domestic data per month in MB; ≥ 1,024,000 is unlimited (SPEC §9). */
    dataMb: integer('data_mb').notNull(),
    /** Monthly price with VAT in øre (for prepaid: 0, the number is paid by top-ups). */
    monthlyPriceOere: integer('monthly_price_oere').notNull(),
    maxMembers: integer('max_members').notNull().default(1),
    memberPrices: jsonb('member_prices').$type<MemberPriceJson[]>().notNull(),
    /** The EU package that can be switched on: monthly price and data abroad; null = none. */
    euPackagePriceOere: integer('eu_package_price_oere'),
    euPackageDataMb: integer('eu_package_data_mb'),
    /** How much data a number on this plan may give away per month (givenData.max, SPEC §5). */
    giftMaxMb: integer('gift_max_mb').notNull(),
    commitmentMonths: integer('commitment_months').notNull().default(0),
    sortOrder: integer('sort_order').notNull().default(0),
    isOffered: boolean('is_offered').notNull().default(true),
  },
  (t) => [
    index('plans_plan_type_id_idx').on(t.planTypeId),
    check('plans_data_mb', sql`${t.dataMb} >= 0`),
    check('plans_monthly_price', sql`${t.monthlyPriceOere} >= 0`),
    check('plans_max_members', sql`${t.maxMembers} >= 1`),
    check('plans_gift_max_mb', sql`${t.giftMaxMb} >= 0`),
    check('plans_commitment_months', sql`${t.commitmentMonths} >= 0`),
    check(
      'plans_member_prices',
      sql`jsonb_typeof(${t.memberPrices}) = 'array' and jsonb_array_length(${t.memberPrices}) >= 1 and (${t.memberPrices} -> 0 ->> 'price')::integer = ${t.monthlyPriceOere}`,
    ),
    check(
      'plans_eu_package',
      sql`(${t.euPackagePriceOere} is null) = (${t.euPackageDataMb} is null) and coalesce(${t.euPackagePriceOere}, 0) >= 0 and coalesce(${t.euPackageDataMb}, 0) >= 0`,
    ),
  ],
);

export const PACKAGE_KINDS = ['data', 'eu_data'] as const satisfies readonly PackageKind[];

/**
 * Extra packages for sale (SPEC §1 "buy extra packages, valid only until month end"): data at
 * home, or data in the EU. What a bought package adds is recorded on the line's balance.
 */
export const extraPackages = pgTable(
  'extra_packages',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: PACKAGE_KINDS }).notNull(),
    nameFo: text('name_fo').notNull(),
    nameEn: text('name_en').notNull(),
    dataMb: integer('data_mb').notNull(),
    /** Price with VAT in øre. */
    priceOere: integer('price_oere').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    isOffered: boolean('is_offered').notNull().default(true),
  },
  (t) => [
    check('extra_packages_kind', sql`${t.kind} in ('data', 'eu_data')`),
    check('extra_packages_data_mb', sql`${t.dataMb} > 0`),
    check('extra_packages_price', sql`${t.priceOere} >= 0`),
  ],
);

export type PlanTypeRow = typeof planTypes.$inferSelect;
export type NewPlanTypeRow = typeof planTypes.$inferInsert;
export type PlanRow = typeof plans.$inferSelect;
export type NewPlanRow = typeof plans.$inferInsert;
export type ExtraPackageRow = typeof extraPackages.$inferSelect;
export type NewExtraPackageRow = typeof extraPackages.$inferInsert;
