import type { NewExtraPackageRow, NewPlanRow } from '../../db/schema/catalog';
import { DEMO_PACKAGES, DEMO_PLANS } from '../demo-accounts';
import type { Address, Gender } from './people';

/*
 * The seeder's picture of one household before it becomes rows: the people, their accounts and
 * lines, and when things happened (epoch ms). generate.ts plans a household; the emit modules
 * turn it into rows.
 */

/** The catalogue the seeder sells from: the demo's plans and packages (seeded if missing). */
export type Plan = NewPlanRow & { maxMembers: number; giftMaxMb: number };
export type Package = NewExtraPackageRow;

export const PLANS: ReadonlyMap<string, Plan> = new Map(
  DEMO_PLANS.map((p) => [
    p.id,
    { ...p, maxMembers: p.maxMembers ?? 1, giftMaxMb: p.giftMaxMb ?? 0 },
  ]),
);
export const PACKAGES: ReadonlyMap<string, Package> = new Map(DEMO_PACKAGES.map((p) => [p.id, p]));

export function plan(id: string): Plan {
  const found = PLANS.get(id);
  if (!found) throw new Error(`no plan ${id} in the catalogue`);
  return found;
}

export function extraPackage(id: string): Package {
  const found = PACKAGES.get(id);
  if (!found) throw new Error(`no package ${id} in the catalogue`);
  return found;
}

export interface Person {
  /** Null for a family member without a login of their own (a child). */
  userId: string | null;
  firstname: string;
  lastname: string;
  gender: Gender;
  /** `yyyy-mm-dd` */
  birthDate: string;
  email: string | null;
  locale: 'fo' | 'en';
  address: Address;
  /** The user's own number (users.phone_number); null for a person without a login. */
  phoneNumber: string | null;
  createdMs: number;
  usageAlert80: boolean;
  usageAlert100: boolean;
}

export type AccountKind = 'individual_plan' | 'family_plan' | 'prepaid';

export interface Account {
  id: string;
  owner: Person;
  type: AccountKind;
  planId: string | null;
  status: 'active' | 'processing' | 'cancelled';
  euPackage: boolean;
  /** When the EU package was switched on, if during the history (charged from the next month). */
  euSinceMs: number | null;
  createdMs: number;
  statusChangedMs: number;
  lines: Line[];
}

export interface Sim {
  type: 'esim' | 'physical';
  iccid: string | null;
  pin: string | null;
  puk: string | null;
  esimMatchingId: string | null;
  esimInstalled: boolean;
}

export interface Line {
  id: string;
  /** Running number of the line in this run (ICCIDs and record ids are made from it). */
  seq: number;
  msisdn: string;
  /** Who uses the number: a person with a login, or a member without one. */
  user: Person;
  account: Account;
  planId: string;
  /** The plan before a change during the history, and when it changed. */
  previousPlanId: string | null;
  planChangedMs: number | null;
  /** A downgrade waiting for the month end: the plan it goes to. */
  pendingPlanId: string | null;
  isPrepaid: boolean;
  status: 'active' | 'processing' | 'cancelled';
  createdMs: number;
  /** When provisioning made it active (lines set up during the history); null for older ones. */
  activatedMs: number | null;
  /** A cancelled line ended then; an active one with a pending cancellation ends then. */
  expiresMs: number | null;
  statusChangedMs: number;
  sim: Sim;
  /** The owner's own number (the first of the account's price order). */
  ownersOwn: boolean;
  dataPausedMs: number | null;
  purchaseApproval: boolean;
  numberLocked: boolean;
  simChangedMs: number | null;
  /** A SIM change during the history: when ordered (simChangedMs is when it was done). */
  simChangePlacedMs: number | null;
  phoneBookVisible: boolean | null;
}

/** Who gets a line's notifications and activity: its user, or the owner for a member without one. */
export function userOfLine(line: Line): Person {
  return line.user.userId ? line.user : line.account.owner;
}

export const isLive = (line: Line) => line.status !== 'cancelled';
