import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import { DAY, HOUR, YEAR } from './calendar';
import { between, nth, type GenContext } from './context';
import { plan, type Account, type AccountKind, type Line, type Person, type Sim } from './model';
import { asciiName, firstName, randomAddress, surname, type Address, type Gender } from './people';
import { RATIOS } from './ratios';

/*
 * Plans one household: its people, accounts and lines with their dates, numbers and SIMs. Rows
 * are written by the emit modules afterwards; nothing here writes.
 */

export type HouseholdKind = keyof typeof RATIOS.households;

export interface Household {
  kind: HouseholdKind;
  /** Everyone with a login (owner first). */
  users: Person[];
  accounts: Account[];
  /** All lines of all accounts. */
  lines: Line[];
}

/** Where seeded e-mail addresses live (the demo's are at demo.alda.fo). */
export const SCALE_EMAIL_DOMAIN = 'scale.alda.fo';

const NUMBER_QUARANTINE_MS = 90 * DAY;

const KINDS = Object.entries(RATIOS.households) as [HouseholdKind, number][];
const FAMILY_SIZES = Object.entries(RATIOS.familySize).map(([n, w]) => [Number(n), w] as const);

/** An ICCID of ours (E.118: 89, 298, issuer 01, 12-digit serial, Luhn), unique per line. */
function iccidOf(seq: number, seed: number): string {
  // An odd multiplier not divisible by 5 permutes the serials: unique, and not in line order.
  const serial = (seq * 7_919_113 + seed * 104_729) % 1_000_000_000_000;
  const payload = `8929801${String(serial).padStart(12, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** An SM-DP+ matching id as the demo shows them (`K2QF-7XWD-M4HA-9R3T`). */
export function matchingId(ctx: GenContext): string {
  const group = () => Array.from({ length: 4 }, () => ctx.random.pick([...ALNUM])).join('');
  return `${group()}-${group()}-${group()}-${group()}`;
}

/** A SIM in service: eSIMs are more common on newer lines. */
function simOf(ctx: GenContext, createdMs: number, seq: number, inService: boolean): Sim {
  const recent = createdMs > ctx.cal.nowMs - 3 * YEAR;
  const esim = ctx.random.chance(recent ? 0.4 : 0.12);
  if (!inService)
    return {
      type: esim ? 'esim' : 'physical',
      iccid: null,
      pin: null,
      puk: null,
      esimMatchingId: null,
      esimInstalled: false,
    };
  return esim
    ? {
        type: 'esim',
        iccid: null,
        pin: null,
        puk: null,
        esimMatchingId: matchingId(ctx),
        esimInstalled: ctx.random.chance(0.95),
      }
    : {
        type: 'physical',
        iccid: iccidOf(seq, ctx.seed),
        pin: ctx.random.digits(4),
        puk: ctx.random.digits(8),
        esimMatchingId: null,
        esimInstalled: false,
      };
}

/** `yyyy-mm-dd` of someone `age` years old today (give or take a year). */
function birthDateOf(ctx: GenContext, age: number): string {
  const ms = ctx.cal.nowMs - age * YEAR - ctx.random.next() * YEAR;
  return new Date(ms).toISOString().slice(0, 10);
}

function newPerson(
  ctx: GenContext,
  p: {
    gender?: Gender;
    lastname?: string;
    age: number;
    address: Address;
    login: boolean;
    createdMs: number;
  },
): Person {
  const gender = p.gender ?? (ctx.random.chance(0.5) ? 'f' : 'm');
  const firstname = firstName(ctx.random, gender);
  const lastname = p.lastname ?? surname(ctx.random);
  let userId: string | null = null;
  let email: string | null = null;
  if (p.login) {
    userId = ctx.ids.next('user');
    ctx.userSeq += 1;
    email = `${asciiName(firstname)}.${asciiName(lastname)}.${ctx.userSeq}@${SCALE_EMAIL_DOMAIN}`;
  }
  return {
    userId,
    firstname,
    lastname,
    gender,
    birthDate: birthDateOf(ctx, p.age),
    email,
    locale: ctx.random.chance(0.9) ? 'fo' : 'en',
    address: p.address,
    phoneNumber: null,
    createdMs: p.createdMs,
    usageAlert80: ctx.random.chance(0.95),
    usageAlert100: ctx.random.chance(0.97),
  };
}

/** When the owner became a customer: some during the history, most up to ten years before. */
function customerSince(ctx: GenContext): number {
  const { nowMs, startMs } = ctx.cal;
  if (ctx.random.chance(RATIOS.newDuringHistory)) return between(ctx, startMs, nowMs - 4 * DAY);
  return startMs - Math.pow(ctx.random.next(), 0.8) * 9.5 * YEAR - DAY;
}

function newAccount(
  ctx: GenContext,
  owner: Person,
  type: AccountKind,
  planId: string | null,
  createdMs: number,
  status: Account['status'] = 'active',
): Account {
  const eu = type !== 'prepaid' && status === 'active' && ctx.random.chance(RATIOS.euPackage);
  // Some switched the EU package on during the history; the rest had it all along.
  const euSinceMs =
    eu && ctx.random.chance(0.1)
      ? Math.max(createdMs, between(ctx, ctx.cal.startMs, ctx.cal.nowMs))
      : null;
  return {
    id: ctx.ids.next('account'),
    owner,
    type,
    planId,
    status,
    euPackage: eu,
    euSinceMs: euSinceMs !== null && euSinceMs > ctx.cal.startMs ? euSinceMs : null,
    createdMs,
    statusChangedMs: createdMs,
    lines: [],
  };
}

interface LinePlan {
  account: Account;
  user: Person;
  planId: string;
  createdMs: number;
  status: Line['status'];
  msisdn?: string;
  expiresMs?: number | null;
}

function addLine(ctx: GenContext, p: LinePlan): Line {
  ctx.lineSeq += 1;
  const live = p.status === 'active';
  const inHistory = p.createdMs >= ctx.cal.startMs;
  const activatedMs = live && inHistory ? p.createdMs + ctx.random.int(2, 48) * HOUR : null;
  const ownersOwn = p.account.lines.length === 0 && p.user === p.account.owner;
  const line: Line = {
    id: ctx.ids.next('line'),
    seq: ctx.lineSeq,
    msisdn: p.msisdn ?? ctx.numbers.next(),
    user: p.user,
    account: p.account,
    planId: p.planId,
    previousPlanId: null,
    planChangedMs: null,
    pendingPlanId: null,
    isPrepaid: p.account.type === 'prepaid',
    status: p.status,
    createdMs: p.createdMs,
    activatedMs,
    expiresMs: p.expiresMs ?? null,
    statusChangedMs:
      p.status === 'cancelled' ? (p.expiresMs ?? p.createdMs) : (activatedMs ?? p.createdMs),
    sim: simOf(ctx, p.createdMs, ctx.lineSeq, p.status !== 'processing'),
    ownersOwn,
    dataPausedMs: null,
    purchaseApproval: false,
    // Lines from before the lock (issue 32) were left unlocked; newer ones start locked.
    numberLocked:
      p.createdMs > ctx.cal.nowMs - 2 * YEAR ? ctx.random.chance(0.97) : ctx.random.chance(0.3),
    simChangedMs: null,
    simChangePlacedMs: null,
    phoneBookVisible: ctx.random.chance(0.1) ? ctx.random.chance(0.5) : null,
  };
  p.account.lines.push(line);
  if (p.user.userId && p.user.phoneNumber === null && p.status !== 'cancelled') {
    p.user.phoneNumber = line.msisdn;
  }
  if (p.status === 'active') ctx.reuse.offer(line.msisdn, line.createdMs, ctx.random);
  return line;
}

function individualPlanId(ctx: GenContext): string {
  return ctx.random.weighted([
    ['individual-5', 30],
    ['individual-20', 45],
    ['individual-unlimited', 25],
  ]);
}

/** A household of one line on its own account (individual or prepaid). */
function single(
  ctx: GenContext,
  owner: Person,
  kind: 'individual' | 'prepaid',
  sinceMs: number,
  isNew: boolean,
) {
  const type = kind === 'prepaid' ? 'prepaid' : 'individual_plan';
  const planId = kind === 'prepaid' ? 'prepaid-talutid' : individualPlanId(ctx);
  const account = newAccount(
    ctx,
    owner,
    type,
    isNew ? null : planId,
    sinceMs,
    isNew ? 'processing' : 'active',
  );
  addLine(ctx, {
    account,
    user: owner,
    planId,
    createdMs: sinceMs,
    status: isNew ? 'processing' : 'active',
  });
  return [account];
}

function family(ctx: GenContext, owner: Person, sinceMs: number, maxLines: number): Account[] {
  const size = Math.min(maxLines, ctx.random.weighted(FAMILY_SIZES));
  const planId = size === 6 || ctx.random.chance(0.4) ? 'family-unlimited' : 'family-20';
  const account = newAccount(ctx, owner, 'family_plan', planId, sinceMs);
  addLine(ctx, { account, user: owner, planId, createdMs: sinceMs, status: 'active' });
  const ownerAge = ctx.cal.nowMs - Date.parse(owner.birthDate);
  const joinedBy = (share: number) =>
    sinceMs + ctx.random.next() * share * Math.max(0, ctx.cal.nowMs - 5 * DAY - sinceMs);
  // Families of three or more (70 % of them) may be adding one, up to the plan's members.
  const addingOne =
    size >= 3 &&
    size <= plan(planId).maxMembers &&
    (nth(ctx, 'family of three') === 1 || ctx.random.chance(RATIOS.memberBeingAdded / 0.7));
  for (let i = 1; i < size; i += 1) {
    const partner = i === 1;
    const age = partner
      ? Math.max(18, Math.round(ownerAge / YEAR) + ctx.random.int(-5, 5))
      : ctx.random.int(4, Math.max(5, Math.min(28, Math.round(ownerAge / YEAR) - 18)));
    const login = age >= 18 && ctx.random.chance(RATIOS.adultMemberLogin);
    const beingAdded = addingOne && i === size - 1;
    const createdMs = beingAdded
      ? ctx.cal.nowMs - ctx.random.int(2, 60) * HOUR
      : joinedBy(partner ? 0.2 : 0.7);
    const member = newPerson(ctx, {
      gender: partner ? (owner.gender === 'f' ? 'm' : 'f') : undefined,
      lastname: partner && ctx.random.chance(0.3) ? undefined : owner.lastname,
      age,
      address: owner.address,
      login,
      createdMs,
    });
    const line = addLine(ctx, {
      account,
      user: member,
      planId,
      createdMs,
      status: beingAdded ? 'processing' : 'active',
    });
    // Owners often want to approve a child's purchases, and sometimes pause their data.
    if (!login && age < 18) {
      line.purchaseApproval = ctx.random.chance(0.3);
      if (!beingAdded && ctx.random.chance(0.01))
        line.dataPausedMs = between(ctx, ctx.cal.nowMs - 10 * DAY, ctx.cal.nowMs);
    }
  }
  return [account];
}

/** A line the owner had in the past: cancelled, its number since given to someone else. */
function pastLine(ctx: GenContext, owner: Person): Account {
  const reused = ctx.reuse.take(ctx.random);
  let msisdn: string | undefined;
  let expiresMs = ctx.cal.nowMs - between(ctx, 5 * DAY, 3 * YEAR);
  if (reused) {
    // It ended before its number rested 90 days and went to the line that has it now.
    const candidate = reused.createdMs - NUMBER_QUARANTINE_MS - between(ctx, 0, YEAR);
    if (candidate > ctx.cal.nowMs - 12 * YEAR) {
      msisdn = reused.msisdn;
      expiresMs = candidate;
    }
  }
  const createdMs = expiresMs - between(ctx, 0.5 * YEAR, 5 * YEAR);
  const { account, planId } = endedAccount(ctx, owner, 0.6, createdMs, expiresMs);
  addLine(ctx, { account, user: owner, planId, createdMs, status: 'cancelled', msisdn, expiresMs });
  owner.createdMs = Math.min(owner.createdMs, createdMs);
  return account;
}

/** An individual account (talutíð with chance `prepaidChance`) that ended at `expiresMs`. */
function endedAccount(
  ctx: GenContext,
  owner: Person,
  prepaidChance: number,
  createdMs: number,
  expiresMs: number,
) {
  const prepaid = ctx.random.chance(prepaidChance);
  const planId = prepaid ? 'prepaid-talutid' : individualPlanId(ctx);
  const account = newAccount(
    ctx,
    owner,
    prepaid ? 'prepaid' : 'individual_plan',
    planId,
    createdMs,
    'cancelled',
  );
  account.statusChangedMs = expiresMs;
  return { account, planId };
}

/** A former customer: their one line ended and the number moved to another operator. */
function churned(ctx: GenContext, owner: Person): Account[] {
  const expiresMs = ctx.cal.nowMs - between(ctx, 3 * DAY, 2 * YEAR);
  const createdMs = Math.min(owner.createdMs, expiresMs - between(ctx, 0.3 * YEAR, 6 * YEAR));
  owner.createdMs = createdMs;
  const { account, planId } = endedAccount(ctx, owner, 0.4, createdMs, expiresMs);
  const msisdn = ctx.numbers.next();
  // Ported out: the number is theirs at the other operator, still their phone number here.
  owner.phoneNumber = msisdn;
  addLine(ctx, { account, user: owner, planId, createdMs, status: 'cancelled', msisdn, expiresMs });
  return [account];
}

/** Plans the next household, with at most `maxLines` lines (at least one unless welcome). */
export function planHousehold(ctx: GenContext, maxLines: number): Household {
  let kind = ctx.random.weighted(KINDS);
  if (maxLines < 2 && kind === 'family') kind = 'individual';
  const sinceMs = customerSince(ctx);
  const owner = newPerson(ctx, {
    age: ctx.random.int(19, 80),
    address: randomAddress(ctx.random),
    login: true,
    createdMs: sinceMs,
  });
  // The first three single-line households are being set up (and then a share of them).
  const isNew =
    (kind === 'individual' || kind === 'prepaid') &&
    (nth(ctx, 'single household') <= 3 || ctx.random.chance(RATIOS.newHousehold / 0.74));
  const startMs = isNew ? ctx.cal.nowMs - ctx.random.int(1, 72) * HOUR : sinceMs;
  owner.createdMs = startMs;
  let accounts: Account[];
  switch (kind) {
    case 'welcome':
      owner.createdMs = ctx.cal.nowMs - ctx.random.int(1, 60 * 24) * HOUR;
      // Their number is still with another operator.
      owner.phoneNumber = ctx.numbers.next();
      accounts = [];
      break;
    case 'churned':
      accounts = churned(ctx, owner);
      break;
    case 'family':
      accounts = family(ctx, owner, startMs, maxLines);
      break;
    default:
      accounts = single(ctx, owner, kind, startMs, isNew);
  }
  let used = accounts.reduce((n, a) => n + a.lines.length, 0);
  if (
    kind === 'individual' &&
    !isNew &&
    used < maxLines &&
    ctx.random.chance(RATIOS.secondAccount)
  ) {
    const workSince = between(ctx, startMs, ctx.cal.nowMs - 5 * DAY);
    const work = newAccount(ctx, owner, 'individual_plan', 'individual-5', workSince);
    addLine(ctx, {
      account: work,
      user: owner,
      planId: 'individual-5',
      createdMs: workSince,
      status: 'active',
    });
    accounts.push(work);
    used += 1;
  }
  if (
    kind !== 'welcome' &&
    kind !== 'churned' &&
    !isNew &&
    used < maxLines &&
    ctx.random.chance(RATIOS.pastLine)
  ) {
    accounts.push(pastLine(ctx, owner));
  }
  const lines = accounts.flatMap((a) => a.lines);
  const users = [
    owner,
    ...lines.map((l) => l.user).filter((p) => p !== owner && p.userId !== null),
  ];
  return { kind, users: [...new Set(users)], accounts, lines };
}
