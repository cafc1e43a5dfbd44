import { luhnCheckDigit } from '@alda/contract/rules/iccid';
import type { ProvisioningStepKey } from '@alda/contract/schemas/provisioning';
import { stepPlan, waitAfter, type PlanOf } from '../../modules/provisioning/steps';
import { SIM_PICKUP_LOCATIONS } from '../pickup-locations';
import { DAY, HOUR, MINUTE } from './calendar';
import { act, between, notify, nth, order, type GenContext } from './context';
import type { Household } from './households';
import { plan, userOfLine, type Account, type Line, type Person } from './model';
import { RATIOS } from './ratios';
import { SPECS } from './tables';

/*
 * The household's people, accounts and lines as rows, with the orders that made and changed the
 * lines: the order behind every line (provisioned, with its steps, when it was during the
 * history or is still going on), cancellations, plan changes, SIM changes and the EU package.
 */

const PICKUP_IDS = SIM_PICKUP_LOCATIONS.map((l) => l.id);
/** Timings the seeded provisioning waits with (config PROVISIONING_STEP_S / _SIM_CONFIRM_S). */
const TIMING = { stepS: 3_600, simConfirmS: 2 * 86_400 };

export function emitPeople(ctx: GenContext, household: Household): void {
  for (const person of household.users) {
    if (!person.userId) continue;
    ctx.out.row(SPECS.users, {
      id: person.userId,
      firstname: person.firstname,
      lastname: person.lastname,
      email: person.email,
      phoneNumber: person.phoneNumber,
      birthDate: person.birthDate,
      address: person.address.address,
      postCode: person.address.postCode,
      city: person.address.city,
      locale: person.locale,
      passwordHash: ctx.passwordHash,
      showInPhoneBook: ctx.random.chance(0.2),
      usageAlert80: person.usageAlert80,
      usageAlert100: person.usageAlert100,
      usageAlertEmail: ctx.random.chance(0.1),
      createdAt: person.createdMs,
    });
    if (person.createdMs >= ctx.cal.startMs) {
      notify(ctx, {
        userId: person.userId,
        type: 'system',
        params: {
          title: { fo: 'Vælkomin í Alda', en: 'Welcome to Alda' },
          body: {
            fo: 'Her sært tú tíðindi um haldið, data og gjøld.',
            en: 'This is where you see news about your subscription, data and payments.',
          },
        },
        atMs: person.createdMs + MINUTE,
      });
    }
  }
}

export function emitAccountsAndLines(ctx: GenContext, household: Household): void {
  for (const account of household.accounts) {
    planChanges(ctx, account);
    ctx.out.row(SPECS.accounts, {
      id: account.id,
      ownerUserId: account.owner.userId,
      type: account.type,
      planId: account.planId,
      status: account.status,
      euPackage: account.euPackage,
      createdAt: account.createdMs,
      statusChangedAt: account.statusChangedMs,
    });
    for (const line of account.lines) {
      decideSimChange(ctx, line);
      emitLine(ctx, line);
    }
  }
}

function emitLine(ctx: GenContext, line: Line): void {
  const { sim } = line;
  ctx.out.row(SPECS.phoneLines, {
    id: line.id,
    msisdn: line.msisdn,
    userId: line.user.userId,
    status: line.status,
    accountId: line.account.id,
    planId: line.planId,
    simType: sim.type,
    isPrepaid: line.isPrepaid,
    expiresAt: line.expiresMs,
    createdAt: line.createdMs,
    statusChangedAt: line.statusChangedMs,
    iccid: sim.iccid,
    simPin: sim.pin,
    simPuk: sim.puk,
    esimMatchingId: sim.esimMatchingId,
    esimInstalled: sim.esimInstalled,
    activatedAt: line.activatedMs,
    holderFirstname: line.user.userId ? null : line.user.firstname,
    holderLastname: line.user.userId ? null : line.user.lastname,
    phoneBookVisible: line.phoneBookVisible,
    dataPausedAt: line.dataPausedMs,
    purchaseApproval: line.purchaseApproval,
    numberLocked: line.numberLocked,
    simChangedAt: line.simChangedMs,
  });
}

/** The owner who orders for an account (always a person with a login). */
function ownerId(account: Account): string {
  const id = account.owner.userId;
  if (!id) throw new Error(`account ${account.id} without an owner`);
  return id;
}

interface Provisioning {
  columns: Record<string, string | boolean | null>;
  plan: PlanOf;
}

/** How the SIM of a line's order reaches the customer, and whether the number is ported in. */
function provisioningOf(ctx: GenContext, line: Line): Provisioning {
  const esim = line.sim.type === 'esim';
  const delivery = esim
    ? 'esim'
    : ctx.random.weighted([
        ['pickup', 40],
        ['home', 45],
        ['own_card', 15],
      ] as const);
  const porting = ctx.random.chance(0.15);
  const { address } = line.account.owner;
  const otherIccid = () => {
    const payload = `8929802${ctx.random.digits(12)}`;
    return `${payload}${luhnCheckDigit(payload)}`;
  };
  return {
    plan: { simDelivery: delivery, isPorting: porting },
    columns: {
      simDelivery: delivery,
      simPickupLocationId: delivery === 'pickup' ? ctx.random.pick(PICKUP_IDS) : null,
      shippingAddress: delivery === 'home' ? address.address : null,
      shippingPostCode: delivery === 'home' ? address.postCode : null,
      shippingCity: delivery === 'home' ? address.city : null,
      simcardNumber: delivery === 'own_card' ? otherIccid() : null,
      esimMatchingId: esim ? (line.sim.esimMatchingId ?? null) : null,
      isPorting: porting,
      portingSimcardNumber: porting ? otherIccid() : null,
    },
  };
}

function step(
  ctx: GenContext,
  orderId: string,
  key: ProvisioningStepKey,
  atMs: number,
  actor: string,
  reasonCode: string | null = null,
): void {
  ctx.out.row(SPECS.provisioningSteps, {
    id: ctx.ids.next('step'),
    orderId,
    step: key,
    at: atMs,
    reasonCode,
    actor,
  });
}

const actorOf = (key: ProvisioningStepKey) => (key === 'received' ? 'customer' : 'network');

/** The order that made the line: new subscription (the account's first) or a member added. */
export function emitLineOrder(ctx: GenContext, line: Line): void {
  const { account } = line;
  const first = account.lines[0] === line;
  const member = line.user !== account.owner ? line.user : null;
  const base = {
    userId: ownerId(account),
    accountId: account.id,
    lineId: line.id,
    kind: first ? ('new_subscription' as const) : ('add_member' as const),
    isMainSubscription: first,
    // The plan it was ordered with (an upgrade since changed the line's).
    planId: line.previousPlanId ?? line.planId,
    msisdn: line.msisdn,
    memberFirstname: member?.firstname ?? null,
    memberLastname: member?.lastname ?? null,
    euPackage: first && account.euPackage && account.euSinceMs === null,
  };
  if (line.status === 'processing') return processingOrder(ctx, line, base);
  const doneMs = line.activatedMs ?? line.createdMs;
  const placedMs = line.activatedMs
    ? line.createdMs
    : line.createdMs - ctx.random.int(1, 72) * HOUR;
  // Its steps, spread between placing and going live (a line older than the history too: the
  // steps table holds every line's, as it would after years of orders).
  const p = provisioningOf(ctx, line);
  const orderId = order(ctx, {
    ...base,
    ...p.columns,
    provisioningWaitingFor: 'none',
    createdMs: placedMs,
    completedMs: doneMs,
  });
  const steps = stepPlan(p.plan);
  steps.forEach((key, i) => {
    const at = placedMs + ((doneMs - placedMs) * i) / Math.max(1, steps.length - 1);
    step(ctx, orderId, key, at, actorOf(key));
  });
  // Told in the app when it went live during the history.
  if (line.activatedMs === null) return;
  notify(ctx, {
    userId: ownerId(account),
    type: 'order_completed',
    params: {},
    link: '/',
    atMs: doneMs,
  });
}

/** An order still being set up: some of its steps done, waiting for whoever is next. */
function processingOrder(ctx: GenContext, line: Line, base: Record<string, unknown>): void {
  const p = provisioningOf(ctx, line);
  const steps = stepPlan(p.plan).filter((s) => s !== 'active');
  const done = steps.slice(0, ctx.random.int(1, steps.length));
  const rejected = p.plan.isPorting && done.at(-1) === 'port_requested' && ctx.random.chance(0.3);
  const times = done.map(
    (_, i) => line.createdMs + ((ctx.cal.nowMs - line.createdMs) * (i + 0.5)) / (done.length + 1),
  );
  const lastKey = rejected ? 'port_rejected' : (done.at(-1) ?? 'received');
  const lastMs = times.at(-1) ?? line.createdMs;
  const portDate = done.includes('port_date_set')
    ? ctx.cal.nowMs + ctx.random.int(6, 72) * HOUR
    : null;
  const wait = waitAfter(
    p.plan,
    lastKey,
    new Date(lastMs),
    TIMING,
    portDate === null ? null : new Date(portDate),
  );
  // Due in the future: the worker of an API started on this database goes on from there.
  const nextMs =
    wait.nextAt === null
      ? null
      : Math.max(wait.nextAt.getTime(), ctx.cal.nowMs + ctx.random.int(10, 600) * MINUTE);
  const orderId = order(ctx, {
    ...base,
    ...p.columns,
    esimMatchingId: done.includes('esim_ready') ? (p.columns.esimMatchingId ?? null) : null,
    provisioningWaitingFor: wait.waitingFor,
    provisioningNextAt: nextMs,
    portDate: portDate,
    createdMs: line.createdMs,
  });
  done.forEach((key, i) => step(ctx, orderId, key, times[i] ?? lastMs, actorOf(key)));
  if (rejected) step(ctx, orderId, 'port_rejected', lastMs + MINUTE, 'network', 'SIM_MISMATCH');
}

/** The start of the month after the current one: when a change "at the month end" happens. */
const nextMonthMs = (ctx: GenContext) => ctx.cal.current.endMs;

type LifecycleAction =
  'plan_upgrade' | 'plan_downgrade' | 'cancel_subscription' | 'delete_number' | 'port_out';

/** A plan change, cancellation or port-out order (lifecycle, ADR 0056). */
function lifecycleOrder(
  ctx: GenContext,
  line: Line,
  o: {
    kind: 'plan_change' | 'cancellation';
    action: LifecycleAction;
    placedMs: number;
    effectiveMs: number;
    planId: string | null;
    previousPlanId: string | null;
  },
): void {
  const done = o.effectiveMs <= ctx.cal.nowMs;
  const orderId = order(ctx, {
    userId: ownerId(line.account),
    accountId: line.account.id,
    lineId: line.id,
    kind: o.kind,
    planId: o.planId,
    previousPlanId: o.previousPlanId,
    msisdn: line.msisdn,
    lifecycleAction: o.action,
    effectiveAt: o.effectiveMs,
    provisioningWaitingFor: done ? 'none' : 'month_end',
    createdMs: o.placedMs,
    completedMs: done ? o.effectiveMs : null,
  });
  step(ctx, orderId, 'received', o.placedMs, 'customer');
  if (done)
    step(ctx, orderId, 'active', o.effectiveMs, o.action === 'port_out' ? 'network' : 'worker');
}

const UPGRADE: Readonly<Record<string, string>> = {
  'individual-5': 'individual-20',
  'individual-20': 'individual-unlimited',
};
const DOWNGRADE: Readonly<Record<string, string>> = {
  'individual-unlimited': 'individual-20',
  'individual-20': 'individual-5',
};

/**
 * Plan changes of an individual account, decided before the rows are written (the account's
 * and line's plan is the new one): an upgrade this month (after the month's charge), or a
 * downgrade or cancellation waiting for the month end.
 */
function planChanges(ctx: GenContext, account: Account): void {
  const line = account.lines[0];
  if (
    account.type !== 'individual_plan' ||
    account.status !== 'active' ||
    !line ||
    line.status !== 'active'
  )
    return;
  // The first three individual accounts show an upgrade, a downgrade and a cancellation.
  const forced = [
    0.5 * RATIOS.planUpgrade,
    RATIOS.planUpgrade,
    RATIOS.planUpgrade + RATIOS.planDowngrade,
  ];
  const roll = forced[nth(ctx, 'individual account') - 1] ?? ctx.random.next();
  const monthStart = ctx.cal.current.startMs;
  const after = Math.max(monthStart + DAY, line.createdMs + DAY);
  if (roll < RATIOS.planUpgrade && UPGRADE[line.planId] && after < ctx.cal.nowMs) {
    line.previousPlanId = line.planId;
    line.planId = UPGRADE[line.planId] ?? line.planId;
    line.planChangedMs = between(ctx, after, ctx.cal.nowMs);
    account.planId = line.planId;
  } else if (roll < RATIOS.planUpgrade + RATIOS.planDowngrade && DOWNGRADE[line.planId]) {
    line.pendingPlanId = DOWNGRADE[line.planId] ?? null;
  } else if (roll < RATIOS.planUpgrade + RATIOS.planDowngrade + RATIOS.pendingCancellation) {
    line.expiresMs = nextMonthMs(ctx);
  }
}

/** The lifecycle orders of a line: what planChanges decided, and how past lines ended. */
export function emitLifecycle(ctx: GenContext, line: Line): void {
  const owner = ownerId(line.account);
  if (line.status === 'cancelled' && line.expiresMs !== null) {
    const churned = line.user.phoneNumber === line.msisdn;
    lifecycleOrder(ctx, line, {
      kind: 'cancellation',
      action: churned ? 'port_out' : line.isPrepaid ? 'delete_number' : 'cancel_subscription',
      placedMs: line.expiresMs - ctx.random.int(1, 25) * DAY,
      effectiveMs: line.expiresMs,
      planId: null,
      previousPlanId: null,
    });
    return;
  }
  if (line.status !== 'active') return;
  const placed = between(ctx, Math.max(ctx.cal.current.startMs, line.createdMs), ctx.cal.nowMs);
  if (line.planChangedMs !== null && line.previousPlanId !== null) {
    lifecycleOrder(ctx, line, {
      kind: 'plan_change',
      action: 'plan_upgrade',
      placedMs: line.planChangedMs,
      effectiveMs: line.planChangedMs,
      planId: line.planId,
      previousPlanId: line.previousPlanId,
    });
    planNotice(ctx, line, owner, line.planId, line.planChangedMs);
  } else if (line.pendingPlanId !== null) {
    lifecycleOrder(ctx, line, {
      kind: 'plan_change',
      action: 'plan_downgrade',
      placedMs: placed,
      effectiveMs: nextMonthMs(ctx),
      planId: line.pendingPlanId,
      previousPlanId: line.planId,
    });
    planNotice(ctx, line, owner, line.pendingPlanId, placed);
  } else if (line.expiresMs !== null) {
    lifecycleOrder(ctx, line, {
      kind: 'cancellation',
      action: 'cancel_subscription',
      placedMs: placed,
      effectiveMs: line.expiresMs,
      planId: null,
      previousPlanId: null,
    });
    act(ctx, { userId: owner, lineId: line.id, type: 'subscription_cancelled', atMs: placed });
  }
}

/** The log entry of a plan change, naming the plan it goes to. */
function planNotice(
  ctx: GenContext,
  line: Line,
  owner: string,
  planId: string,
  atMs: number,
): void {
  const p = plan(planId);
  act(ctx, {
    userId: owner,
    lineId: line.id,
    type: 'plan_changed',
    payload: { planName: { fo: p.nameFo, en: p.nameEn } },
    atMs,
  });
}

/** The activity of a line's start: created (the account's first) or a member added. */
export function emitLineActivity(ctx: GenContext, line: Line): void {
  if (line.status === 'processing' && line.account.lines[0] !== line) return;
  const owner = ownerId(line.account);
  const atMs = line.activatedMs ?? line.createdMs;
  if (line.account.lines[0] === line) {
    const p = plan(line.planId);
    act(ctx, {
      userId: owner,
      lineId: line.id,
      type: 'subscription_created',
      payload: { planName: { fo: p.nameFo, en: p.nameEn } },
      atMs,
    });
    return;
  }
  const counterpart = {
    name: `${line.user.firstname} ${line.user.lastname}`,
    phoneNumber: line.msisdn,
  };
  act(ctx, {
    userId: owner,
    lineId: line.id,
    type: 'member_added',
    payload: { counterpart },
    atMs,
  });
  if (line.user.userId)
    act(ctx, {
      userId: line.user.userId,
      lineId: line.id,
      actorUserId: owner,
      type: 'member_added',
      payload: { counterpart },
      atMs,
    });
}

/** Decides a SIM change during the history (a lost or broken card), before the line's row. */
function decideSimChange(ctx: GenContext, line: Line): void {
  if (
    line.status !== 'active' ||
    line.sim.type !== 'physical' ||
    !ctx.random.chance(RATIOS.simChange)
  )
    return;
  const from = Math.max(ctx.cal.startMs, (line.activatedMs ?? line.createdMs) + DAY);
  if (from > ctx.cal.nowMs - 3 * DAY) return;
  line.simChangePlacedMs = between(ctx, from, ctx.cal.nowMs - 2 * DAY);
  line.simChangedMs = line.simChangePlacedMs + ctx.random.int(4, 40) * HOUR;
}

/** The SIM change's order (a new card, provisioned), log entry and notification. */
export function emitSimChange(ctx: GenContext, line: Line): void {
  const placedMs = line.simChangePlacedMs;
  const doneMs = line.simChangedMs;
  if (placedMs === null || doneMs === null) return;
  const delivery = ctx.random.chance(0.5) ? ('pickup' as const) : ('home' as const);
  const { address } = line.account.owner;
  const user = userOfLine(line);
  const orderId = order(ctx, {
    userId: user.userId ?? ownerId(line.account),
    accountId: line.account.id,
    lineId: line.id,
    kind: 'sim_change',
    msisdn: line.msisdn,
    simDelivery: delivery,
    simPickupLocationId: delivery === 'pickup' ? ctx.random.pick(PICKUP_IDS) : null,
    shippingAddress: delivery === 'home' ? address.address : null,
    shippingPostCode: delivery === 'home' ? address.postCode : null,
    shippingCity: delivery === 'home' ? address.city : null,
    provisioningWaitingFor: 'none',
    createdMs: placedMs,
    completedMs: doneMs,
  });
  const keys = stepPlan({ simDelivery: delivery, isPorting: false });
  keys.forEach((key, i) =>
    step(ctx, orderId, key, placedMs + ((doneMs - placedMs) * i) / (keys.length - 1), actorOf(key)),
  );
  if (user.userId) {
    act(ctx, { userId: user.userId, lineId: line.id, type: 'sim_changed', atMs: doneMs });
    notify(ctx, {
      userId: user.userId,
      type: 'sim_changed',
      params: { phoneNumber: line.msisdn, outcome: 'physical' },
      atMs: doneMs,
    });
  }
}

/** The EU package switched on during the history: its order and log entry. */
export function emitEuPackageChange(ctx: GenContext, account: Account): void {
  const first = account.lines[0];
  if (account.euSinceMs === null || !first) return;
  order(ctx, {
    userId: ownerId(account),
    accountId: account.id,
    lineId: first.id,
    kind: 'eu_package',
    planId: account.planId,
    msisdn: first.msisdn,
    createdMs: account.euSinceMs,
    completedMs: account.euSinceMs,
  });
  act(ctx, {
    userId: ownerId(account),
    type: 'eu_package_changed',
    payload: { enabled: true },
    atMs: account.euSinceMs,
  });
}

/** A person's display name. */
export const nameOf = (p: Person) => `${p.firstname} ${p.lastname}`;
