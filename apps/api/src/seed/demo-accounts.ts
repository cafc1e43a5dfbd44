import { eq } from 'drizzle-orm';
import { faroeMonth, startOfMonth } from '@alda/contract/format/date';
import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import { insertDemoProviderCards } from '../adapters/payments/test-provider/demo';
import type { Db } from '../db/client';
import { accounts, type NewAccountRow } from '../db/schema/accounts';
import { actions, type NewActionRow } from '../db/schema/actions';
import { paymentAgreements } from '../db/schema/agreements';
import { givenDataCounters, lineBalances, prepaidBalances } from '../db/schema/balances';
import {
  extraPackages,
  planTypes,
  plans,
  type NewExtraPackageRow,
  type NewPlanRow,
  type NewPlanTypeRow,
} from '../db/schema/catalog';
import { orders, type NewOrderRow } from '../db/schema/orders';
import { phoneLines } from '../db/schema/phone-lines';
import { provisioningSteps } from '../db/schema/provisioning';
import { DEMO_LINE_IDS, demoUser } from './demo-users';
import { demoProvisioning } from './demo-provisioning';
import { insertDemoRows, type DemoRemap } from './demo-remap';
import { seedDemoUsage } from './demo-usage';
import { insertMissing } from './insert';

/*
 * The demo's catalogue, accounts, orders, balances, payment agreements and activity log, on top
 * of the customers and lines of demo-users.ts. Prices are what a Faroese operator charges today
 * (kr. with 25 % VAT, stored in øre); data in MB. Times are relative to the moment of seeding so
 * the demo always looks current. Fixed ids make every insert idempotent.
 */

const GB = 1024;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const userId = (firstname: string): string => demoUser(firstname).id;

const JOANNES = userId('Jóannes');
const SUNNEVA = userId('Sunneva');
const GUDRUN = userId('Guðrun');
const ROI = userId('Rói');

const LINE = DEMO_LINE_IDS;

/** Ids of the demo accounts, named after whose they are (tests refer to them by these names). */
export const DEMO_ACCOUNT_IDS = {
  joensenFamily: '3c9d0a51-0001-4b7e-9a10-5a5e00000001',
  joannesWork: '3c9d0a51-0002-4b7e-9a10-5a5e00000002',
  gudrun: '3c9d0a51-0003-4b7e-9a10-5a5e00000003',
  gudrunSecond: '3c9d0a51-0004-4b7e-9a10-5a5e00000004',
  roi: '3c9d0a51-0005-4b7e-9a10-5a5e00000005',
} as const;

export const DEMO_PLAN_TYPES: NewPlanTypeRow[] = [
  {
    id: 'individual',
    kind: 'individual_plan',
    nameFo: 'Einstaklingur',
    nameEn: 'Individual',
    sortOrder: 1,
  },
  { id: 'family', kind: 'family_plan', nameFo: 'Familja', nameEn: 'Family', sortOrder: 2 },
  { id: 'prepaid', kind: 'prepaid', nameFo: 'Talutíð', nameEn: 'Prepaid (talutíð)', sortOrder: 3 },
];

const prices = (...kr: number[]) => kr.map((k) => ({ price: k * 100 }));

export const DEMO_PLANS: NewPlanRow[] = [
  {
    id: 'individual-5',
    planTypeId: 'individual',
    nameFo: '5 GB',
    nameEn: '5 GB',
    dataMb: 5 * GB,
    monthlyPriceOere: 14_900,
    memberPrices: prices(149),
    euPackagePriceOere: 4_900,
    euPackageDataMb: 10 * GB,
    giftMaxMb: 2 * GB,
    commitmentMonths: 6,
    sortOrder: 1,
  },
  {
    id: 'individual-20',
    planTypeId: 'individual',
    nameFo: '20 GB',
    nameEn: '20 GB',
    dataMb: 20 * GB,
    monthlyPriceOere: 19_900,
    memberPrices: prices(199),
    euPackagePriceOere: 5_900,
    euPackageDataMb: 25 * GB,
    giftMaxMb: 5 * GB,
    commitmentMonths: 6,
    sortOrder: 2,
  },
  {
    id: 'individual-unlimited',
    planTypeId: 'individual',
    nameFo: 'Óavmarkað',
    nameEn: 'Unlimited',
    dataMb: 1_024_000,
    monthlyPriceOere: 29_900,
    memberPrices: prices(299),
    euPackagePriceOere: 7_900,
    euPackageDataMb: 50 * GB,
    giftMaxMb: 10 * GB,
    commitmentMonths: 6,
    sortOrder: 3,
  },
  {
    id: 'family-20',
    planTypeId: 'family',
    nameFo: 'Familja 20 GB',
    nameEn: 'Family 20 GB',
    dataMb: 20 * GB,
    monthlyPriceOere: 24_900,
    maxMembers: 5,
    memberPrices: prices(249, 99, 79, 79),
    euPackagePriceOere: 5_900,
    euPackageDataMb: 25 * GB,
    giftMaxMb: 5 * GB,
    commitmentMonths: 6,
    sortOrder: 1,
  },
  {
    id: 'family-unlimited',
    planTypeId: 'family',
    nameFo: 'Familja óavmarkað',
    nameEn: 'Family unlimited',
    dataMb: 1_024_000,
    monthlyPriceOere: 34_900,
    maxMembers: 6,
    memberPrices: prices(349, 149, 129, 129),
    euPackagePriceOere: 7_900,
    euPackageDataMb: 50 * GB,
    giftMaxMb: 10 * GB,
    commitmentMonths: 6,
    sortOrder: 2,
  },
  {
    id: 'prepaid-talutid',
    planTypeId: 'prepaid',
    nameFo: 'Talutíð 2 GB',
    nameEn: 'Prepaid 2 GB',
    dataMb: 2 * GB,
    monthlyPriceOere: 0,
    memberPrices: prices(0),
    euPackagePriceOere: null,
    euPackageDataMb: null,
    giftMaxMb: 1 * GB,
    commitmentMonths: 0,
    sortOrder: 1,
  },
];

export const DEMO_PACKAGES: NewExtraPackageRow[] = [
  {
    id: 'data-1',
    kind: 'data',
    nameFo: '1 GB',
    nameEn: '1 GB',
    dataMb: 1 * GB,
    priceOere: 3_900,
    sortOrder: 1,
  },
  {
    id: 'data-5',
    kind: 'data',
    nameFo: '5 GB',
    nameEn: '5 GB',
    dataMb: 5 * GB,
    priceOere: 9_900,
    sortOrder: 2,
  },
  {
    id: 'data-20',
    kind: 'data',
    nameFo: '20 GB',
    nameEn: '20 GB',
    dataMb: 20 * GB,
    priceOere: 19_900,
    sortOrder: 3,
  },
  {
    id: 'eu-5',
    kind: 'eu_data',
    nameFo: 'ES 5 GB',
    nameEn: 'EU 5 GB',
    dataMb: 5 * GB,
    priceOere: 6_900,
    sortOrder: 4,
  },
];

/**
 * A demo SIM card number: ITU-T E.118 — 89 (telecommunications), 298 (the Faroe Islands), our
 * issuer number 01, a 12-digit card serial and the Luhn check digit: 20 digits in all.
 */
const demoIccid = (serial: string): string => {
  const payload = `8929801${serial}`;
  return `${payload}${luhnCheckDigit(payload)}`;
};

/** The SIM of a line in service: a physical card with PIN and PUK, or an eSIM profile. */
type DemoSim =
  | { iccid: string; simPin: string; simPuk: string }
  | { esimMatchingId: string; esimInstalled: boolean };

/** Where each demo line sits: account, plan, SIM, and when it went into service. */
const LINE_SETUP: {
  id: string;
  accountId: string;
  planId: string;
  simType: 'esim' | 'physical';
  /** Lines still being set up have no SIM yet (provisioning hands it over, ADR 0055). */
  sim?: DemoSim;
  isPrepaid?: boolean;
  daysAgo: number;
  /**
   * The number lock (issue 32, ADR 0076): demo lines are unlocked (they predate the lock, as
   * the migration left existing lines) except the one that shows a locked number.
   */
  locked?: boolean;
  /** Days since the number's latest SIM change (CAMARA SIM Swap); none by default. */
  simChangedDaysAgo?: number;
}[] = [
  {
    id: LINE.joannes,
    accountId: DEMO_ACCOUNT_IDS.joensenFamily,
    planId: 'family-20',
    simType: 'esim',
    sim: { esimMatchingId: 'K2QF-7XWD-M4HA-9R3T', esimInstalled: true },
    daysAgo: 800,
  },
  {
    id: LINE.sunneva,
    accountId: DEMO_ACCOUNT_IDS.joensenFamily,
    planId: 'family-20',
    simType: 'physical',
    sim: { iccid: demoIccid('000064017220'), simPin: '4471', simPuk: '90318245' },
    daysAgo: 640,
  },
  {
    id: LINE.bardur,
    accountId: DEMO_ACCOUNT_IDS.joensenFamily,
    planId: 'family-20',
    simType: 'esim',
    daysAgo: 2,
  },
  {
    id: LINE.joannesWork,
    accountId: DEMO_ACCOUNT_IDS.joannesWork,
    planId: 'individual-5',
    simType: 'physical',
    sim: { iccid: demoIccid('000030055811'), simPin: '2086', simPuk: '61724039' },
    daysAgo: 300,
  },
  {
    id: LINE.gudrun,
    accountId: DEMO_ACCOUNT_IDS.gudrun,
    planId: 'individual-20',
    simType: 'esim',
    // Not installed yet: she can still scan the code on a new phone.
    sim: { esimMatchingId: 'P8LN-3VCE-Z6JB-2KQY', esimInstalled: false },
    daysAgo: 420,
    // Guðrun locked her number: a port-out or a new SIM is refused until she unlocks it.
    locked: true,
  },
  {
    id: LINE.gudrunSecond,
    accountId: DEMO_ACCOUNT_IDS.gudrunSecond,
    planId: 'individual-5',
    simType: 'esim',
    daysAgo: 1,
  },
  {
    id: LINE.roi,
    accountId: DEMO_ACCOUNT_IDS.roi,
    planId: 'prepaid-talutid',
    simType: 'physical',
    sim: { iccid: demoIccid('000012009374'), simPin: '8352', simPuk: '27460918' },
    isPrepaid: true,
    daysAgo: 1200,
    // Rói got a new SIM a few days ago.
    simChangedDaysAgo: 4,
  },
];

function demoAccounts(now: Date): NewAccountRow[] {
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  return [
    {
      id: DEMO_ACCOUNT_IDS.joensenFamily,
      ownerUserId: JOANNES,
      type: 'family_plan',
      planId: 'family-20',
      status: 'active',
      euPackage: true,
      createdAt: ago(800),
    },
    {
      id: DEMO_ACCOUNT_IDS.joannesWork,
      ownerUserId: JOANNES,
      type: 'individual_plan',
      planId: 'individual-5',
      status: 'active',
      euPackage: false,
      createdAt: ago(300),
    },
    {
      id: DEMO_ACCOUNT_IDS.gudrun,
      ownerUserId: GUDRUN,
      type: 'individual_plan',
      planId: 'individual-20',
      status: 'active',
      euPackage: true,
      createdAt: ago(420),
    },
    // Ordered yesterday; the plan is set when the order completes (SPEC §2 welcome guard).
    {
      id: DEMO_ACCOUNT_IDS.gudrunSecond,
      ownerUserId: GUDRUN,
      type: 'individual_plan',
      planId: null,
      status: 'processing',
      euPackage: false,
      createdAt: ago(1),
    },
    {
      id: DEMO_ACCOUNT_IDS.roi,
      ownerUserId: ROI,
      type: 'prepaid',
      planId: 'prepaid-talutid',
      status: 'active',
      euPackage: false,
      createdAt: ago(1200),
    },
  ];
}

/** The id of the demo's n-th order (1…): tests name an order of the seed by it. */
export const demoOrderId = (n: number) =>
  `5e0f7c2a-00${String(n).padStart(2, '0')}-4d1b-8c3e-0de000000000`;

function demoOrders(now: Date): NewOrderRow[] {
  const ago = (days: number, minutes = 0) => new Date(now.getTime() - days * DAY - minutes * MIN);
  const done = (days: number) => ({ isComplete: true, completedAt: ago(days) });
  const id = demoOrderId;
  return [
    {
      id: id(1),
      userId: JOANNES,
      accountId: DEMO_ACCOUNT_IDS.joensenFamily,
      lineId: LINE.joannes,
      kind: 'new_subscription',
      isMainSubscription: true,
      planId: 'family-20',
      msisdn: '214455',
      createdAt: ago(802),
      ...done(800),
    },
    {
      id: id(2),
      userId: JOANNES,
      accountId: DEMO_ACCOUNT_IDS.joensenFamily,
      lineId: LINE.sunneva,
      kind: 'add_member',
      planId: 'family-20',
      msisdn: '214456',
      memberFirstname: 'Sunneva',
      memberLastname: 'Joensen',
      createdAt: ago(643),
      ...done(640),
    },
    {
      id: id(3),
      userId: JOANNES,
      accountId: DEMO_ACCOUNT_IDS.joannesWork,
      lineId: LINE.joannesWork,
      kind: 'new_subscription',
      isMainSubscription: true,
      planId: 'individual-5',
      msisdn: '214466',
      createdAt: ago(302),
      ...done(300),
    },
    {
      id: id(4),
      userId: JOANNES,
      accountId: DEMO_ACCOUNT_IDS.joensenFamily,
      lineId: LINE.sunneva,
      kind: 'extra_package',
      msisdn: '214456',
      packageId: 'data-1',
      priceOere: 3_900,
      paymentStatus: 'cancelled',
      createdAt: ago(9),
      isCancelled: true,
      cancelledAt: ago(9, -5),
    },
    // Bárður's number is being set up: SPEC §3 "family members in processing".
    {
      id: id(5),
      userId: JOANNES,
      accountId: DEMO_ACCOUNT_IDS.joensenFamily,
      lineId: LINE.bardur,
      kind: 'add_member',
      planId: 'family-20',
      msisdn: '214457',
      memberFirstname: 'Bárður',
      memberLastname: 'Joensen',
      createdAt: ago(2),
    },
    {
      id: id(6),
      userId: GUDRUN,
      accountId: DEMO_ACCOUNT_IDS.gudrun,
      lineId: LINE.gudrun,
      kind: 'new_subscription',
      isMainSubscription: true,
      planId: 'individual-20',
      msisdn: '557812',
      createdAt: ago(423),
      ...done(420),
    },
    {
      id: id(7),
      userId: GUDRUN,
      accountId: DEMO_ACCOUNT_IDS.gudrun,
      lineId: LINE.gudrun,
      kind: 'extra_package',
      msisdn: '557812',
      packageId: 'data-5',
      priceOere: 9_900,
      paymentStatus: 'paid',
      createdAt: ago(6),
      ...done(6),
    },
    {
      id: id(8),
      userId: GUDRUN,
      accountId: DEMO_ACCOUNT_IDS.gudrunSecond,
      lineId: LINE.gudrunSecond,
      kind: 'new_subscription',
      isMainSubscription: true,
      planId: 'individual-5',
      msisdn: '557813',
      createdAt: ago(1),
    },
    {
      id: id(9),
      userId: ROI,
      accountId: DEMO_ACCOUNT_IDS.roi,
      lineId: LINE.roi,
      kind: 'new_subscription',
      isMainSubscription: true,
      planId: 'prepaid-talutid',
      msisdn: '779031',
      createdAt: ago(1201),
      ...done(1200),
    },
    {
      id: id(10),
      userId: ROI,
      accountId: DEMO_ACCOUNT_IDS.roi,
      lineId: LINE.roi,
      kind: 'top_up',
      msisdn: '779031',
      priceOere: 10_000,
      paymentStatus: 'paid',
      createdAt: ago(12),
      ...done(12),
    },
  ];
}

/**
 * This month's data of the lines in service (Jóannes gave Sunneva 1 GB; Guðrun bought 5 GB).
 * Jóannes's work number is on a trip without the EU package (issue 33 §2, ADR 0078): 6,500 MB
 * abroad took its last 3,220 MB at home and 3,280 MB beyond, charged at 0.10 kr a MB (328 kr, 88 %
 * of the default 373 kr cap); he then bought 3 GB extra at home.
 */
function demoBalances(now: Date) {
  const periodStart = startOfMonth(now);
  const updatedAt = new Date(now.getTime() - 7 * MIN);
  const balance = (
    lineId: string,
    totalMb: number,
    usedMb: number,
    eu: [number, number] | null,
    rolloverMb = 0,
    roaming = { chargedOere: 0, chargedMb: 0, remainingMb: totalMb - usedMb },
  ) => ({
    lineId,
    periodStart,
    domesticTotalMb: totalMb,
    domesticRemainingMb: roaming.remainingMb,
    domesticUsedMb: usedMb,
    euAllowanceMb: eu?.[0] ?? null,
    euUsedMb: eu?.[1] ?? 0,
    rolloverMb,
    roamingChargedOere: roaming.chargedOere,
    roamingChargedMb: roaming.chargedMb,
    updatedAt,
  });
  return [
    balance(LINE.joannes, 20 * GB + 2 * GB, 8_400, [25 * GB, 1_200], 2 * GB),
    balance(LINE.sunneva, 20 * GB + 1 * GB, 17_800, [25 * GB, 0]),
    balance(LINE.joannesWork, 5 * GB + 3 * GB, 1_900 + 6_500, null, 0, {
      chargedOere: 32_800,
      chargedMb: 3_280,
      remainingMb: 3 * GB,
    }),
    balance(LINE.gudrun, 20 * GB + 5 * GB, 11_000, [25 * GB, 3_400]),
    balance(LINE.roi, 2 * GB, 700, null),
  ];
}

function demoAgreements(now: Date) {
  return [
    {
      id: '9a4b2f10-0001-4e2c-9d3a-a9e000000001',
      userId: JOANNES,
      status: 'active' as const,
      cardBrand: 'Visa',
      cardLast4: '4242',
      cardExpiry: '09/29',
      providerReference: 'demo-card-joannes',
      provider: 'test',
      createdAt: new Date(now.getTime() - 800 * DAY),
    },
    {
      id: '9a4b2f10-0002-4e2c-9d3a-a9e000000002',
      userId: GUDRUN,
      status: 'active' as const,
      cardBrand: 'Mastercard',
      cardLast4: '5454',
      cardExpiry: '03/28',
      providerReference: 'demo-card-gudrun',
      provider: 'test',
      createdAt: new Date(now.getTime() - 420 * DAY),
    },
  ];
}

function demoActions(now: Date): NewActionRow[] {
  const ago = (days: number, minutes = 0) => new Date(now.getTime() - days * DAY - minutes * MIN);
  const id = (n: number) => `b1d3e5f7-00${String(n).padStart(2, '0')}-4a2c-8e1f-ac7000000000`;
  const family = { fo: 'Familja 20 GB', en: 'Family 20 GB' };
  const sunneva = { name: 'Sunneva Joensen', phoneNumber: '214456' };
  const joannes = { name: 'Jóannes Joensen', phoneNumber: '214455' };
  // The monthly charge ran at 06:00 on the 1st (or an hour ago, early on the 1st).
  const firstOfMonth = new Date(
    Math.min(startOfMonth(now).getTime() + 6 * 60 * MIN, now.getTime() - 60 * MIN),
  );
  return [
    {
      id: id(1),
      userId: JOANNES,
      lineId: LINE.joannes,
      type: 'subscription_created',
      payload: { planName: family },
      createdAt: ago(800),
    },
    {
      id: id(2),
      userId: JOANNES,
      lineId: LINE.sunneva,
      type: 'member_added',
      payload: { counterpart: sunneva },
      createdAt: ago(640),
    },
    {
      id: id(3),
      userId: JOANNES,
      lineId: LINE.joannesWork,
      type: 'subscription_created',
      payload: { planName: { fo: '5 GB', en: '5 GB' } },
      createdAt: ago(300),
    },
    {
      id: id(4),
      userId: JOANNES,
      lineId: LINE.joannes,
      type: 'eu_package_changed',
      payload: { enabled: true },
      createdAt: ago(20),
    },
    {
      id: id(5),
      userId: JOANNES,
      lineId: LINE.joannes,
      type: 'data_given',
      payload: { counterpart: sunneva },
      dataMb: 1 * GB,
      createdAt: ago(3, 40),
    },
    {
      id: id(6),
      userId: JOANNES,
      lineId: LINE.bardur,
      type: 'member_added',
      payload: { counterpart: { name: 'Bárður Joensen', phoneNumber: '214457' } },
      createdAt: ago(2),
    },
    {
      id: id(7),
      userId: JOANNES,
      lineId: LINE.joannes,
      type: 'payment',
      payload: {},
      amountOere: 24_900 + 9_900 + 5_900 + 14_900,
      createdAt: firstOfMonth,
    },
    {
      id: id(8),
      userId: SUNNEVA,
      lineId: LINE.sunneva,
      actorUserId: JOANNES,
      type: 'member_added',
      payload: { counterpart: sunneva },
      createdAt: ago(640),
    },
    {
      id: id(9),
      userId: SUNNEVA,
      lineId: LINE.sunneva,
      actorUserId: JOANNES,
      type: 'data_received',
      payload: { counterpart: joannes },
      dataMb: 1 * GB,
      createdAt: ago(3, 40),
    },
    {
      id: id(10),
      userId: SUNNEVA,
      lineId: LINE.sunneva,
      type: 'data_requested',
      payload: { counterpart: joannes },
      dataMb: 1 * GB,
      createdAt: ago(3, 55),
    },
    {
      id: id(11),
      userId: GUDRUN,
      lineId: LINE.gudrun,
      type: 'subscription_created',
      payload: { planName: { fo: '20 GB', en: '20 GB' } },
      createdAt: ago(420),
    },
    {
      id: id(12),
      userId: GUDRUN,
      lineId: LINE.gudrun,
      type: 'eu_package_changed',
      payload: { enabled: true },
      createdAt: ago(45),
    },
    {
      id: id(13),
      userId: GUDRUN,
      lineId: LINE.gudrun,
      type: 'package_purchased',
      payload: { packageName: { fo: '5 GB', en: '5 GB' } },
      dataMb: 5 * GB,
      amountOere: 9_900,
      createdAt: ago(6),
    },
    {
      id: id(14),
      userId: GUDRUN,
      lineId: LINE.gudrun,
      type: 'payment',
      payload: {},
      amountOere: 19_900 + 5_900,
      createdAt: firstOfMonth,
    },
    {
      id: id(15),
      userId: ROI,
      lineId: LINE.roi,
      type: 'subscription_created',
      payload: { planName: { fo: 'Talutíð 2 GB', en: 'Prepaid 2 GB' } },
      createdAt: ago(1200),
    },
    {
      id: id(16),
      userId: ROI,
      lineId: LINE.roi,
      type: 'top_up',
      payload: {},
      amountOere: 10_000,
      createdAt: ago(12),
    },
  ];
}

/**
 * Seeds the demo's catalogue and the accounts, orders, balances (with the daily use behind them),
 * agreements and activity log of the demo customers. Expects the users and lines of
 * demo-users.ts to exist; safe to run again. With a `remap` it writes a private copy of the
 * customers' data instead (demo-copy.ts): every row through the remap, all of them or nothing,
 * and not the catalogue, which copies share with the demo.
 */
export async function seedDemoAccounts(db: Db, now: Date, remap?: DemoRemap): Promise<void> {
  if (!remap) {
    await insertMissing(db, planTypes, DEMO_PLAN_TYPES);
    await insertMissing(db, plans, DEMO_PLANS);
    await insertMissing(db, extraPackages, DEMO_PACKAGES);
  }
  await insertDemoRows(db, accounts, demoAccounts(now), remap);
  for (const demoLine of LINE_SETUP) {
    const line = remap ? remap.row(demoLine) : demoLine;
    const update = db
      .update(phoneLines)
      .set({
        accountId: line.accountId,
        planId: line.planId,
        simType: line.simType,
        isPrepaid: line.isPrepaid ?? false,
        ...line.sim,
        numberLocked: line.locked ?? false,
        simChangedAt:
          line.simChangedDaysAgo === undefined
            ? null
            : new Date(now.getTime() - line.simChangedDaysAgo * DAY),
        createdAt: new Date(now.getTime() - line.daysAgo * DAY),
      })
      .where(eq(phoneLines.id, line.id));
    if (!remap) {
      await update;
      continue;
    }
    // A copy's line was inserted just before: it must be there to set up.
    const updated = await update.returning({ id: phoneLines.id });
    if (updated.length !== 1) throw new Error(`demo copy: line ${line.id} not set up`);
  }
  const joannes = demoUser('Jóannes');
  const provisioning = demoProvisioning(
    now,
    { bardur: demoOrderId(5), gudrunSecond: demoOrderId(8) },
    { address: joannes.address, postCode: joannes.postCode, city: joannes.city },
  );
  await insertDemoRows(
    db,
    orders,
    demoOrders(now).map((o) => ({ ...o, ...provisioning.columns.get(o.id ?? '') })),
    remap,
  );
  await insertDemoRows(db, provisioningSteps, provisioning.steps, remap);
  const balances = demoBalances(now);
  await insertDemoRows(db, lineBalances, balances, remap);
  await seedDemoUsage(db, now, balances, remap);
  await insertDemoRows(
    db,
    givenDataCounters,
    [
      {
        lineId: LINE.joannes,
        month: faroeMonth(now),
        givenMb: 1 * GB,
        maxMb: 5 * GB,
        updatedAt: now,
      },
    ],
    remap,
  );
  await insertDemoRows(
    db,
    prepaidBalances,
    [{ lineId: LINE.roi, balanceOere: 8_550, updatedAt: new Date(now.getTime() - 12 * DAY) }],
    remap,
  );
  const agreements = demoAgreements(now);
  await insertDemoRows(db, paymentAgreements, agreements, remap);
  // The test provider holds the cards behind those agreements (its own store, ADR 0050); a
  // copy's remap gives a card the same new reference it gave the agreement.
  const cards = agreements.map((a) => ({
    id: a.providerReference,
    brand: a.cardBrand,
    last4: a.cardLast4,
    expiry: a.cardExpiry,
  }));
  await insertDemoProviderCards(
    db,
    remap ? cards.map((card) => remap.row(card)) : cards,
    remap ? { all: true } : undefined,
  );
  await insertDemoRows(db, actions, demoActions(now), remap);
}
