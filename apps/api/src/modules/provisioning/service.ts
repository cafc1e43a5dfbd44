import type { Locale } from '@alda/contract/locale';
import type { Order } from '@alda/contract/schemas/orders';
import type {
  ProvisioningStepKey,
  ProvisioningWaitingFor,
  SimDelivery,
  SimPickupLocation,
} from '@alda/contract/schemas/provisioning';
import type { FastifyBaseLogger } from 'fastify';
import type { EmailSender } from '../../adapters/email/email-sender';
import { plainEmail } from '../../adapters/email/plain-email';
import {
  NetworkOrderFailedError,
  NetworkPendingError,
  orderCallKey,
  type NetworkAdapter,
  type NetworkCall,
} from '../../adapters/network/network';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import type { OrderRow } from '../../db/schema/orders';
import type { ProvisioningStepRow } from '../../db/schema/provisioning';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { insertActions } from '../actions/log';
import { insertNotifications } from '../notifications/notify';
import { recordAudit } from '../operator/audit';
import { completeOrder } from '../orders/lifecycle';
import { findPlansByIds } from '../plans/catalogue';
import { initialBuckets } from '../usage/balance';
import { insertMissingBalances } from '../usage/balance-rows';
import { findUserById } from '../users/records';
import { bumpUserVersions } from '../versions/change-versions';
import { startOfMonth } from '@alda/contract/format/date';
import { isLockedAt } from '@alda/contract/rules/number-protection';
import { toOrderDtos, toPickupLocationDto } from './dto';
import {
  claimDueOrder,
  findAccount,
  findLine,
  findOpenOrderOfLine,
  findPickupLocations,
  findProvisionedOrder,
  findSteps,
  insertOrder,
  insertStep,
  listOrdersByState,
  listPickupLocations,
  lockProvisionedOrder,
  updateAccount,
  updateLine,
  updateOrder,
  type OrderPage,
  type OrderState,
} from './repo';
import { nextStep, stepPlan, upcomingSteps, waitAfter, type Timing } from './steps';
import { customerReason, NETWORK_ORDER_FAILED, stepMessage, type Bilingual } from './texts';

/*
 * Provisioning (docs/decisions/0055-provisioning.md): the steps an order that sets up a line
 * goes through, performed by the worker (`jobs/provisioning.ts`), the customer (confirm the SIM,
 * correct a rejected port) or an operator (`npm run operator`). Every step is one transaction:
 * the step row, the order's waiting state and due time, the step's effect (an eSIM profile, the
 * line in service, the account's plan, the month's balance), and the in-app notification; the
 * e-mail of the step is sent after the commit.
 */

/**
 * Who performed a step: the network (automatic steps), the worker (a SIM confirmed by itself
 * after PROVISIONING_SIM_CONFIRM_S), the customer, an operator by name (`operator:anna`), or a
 * staff member of the console (`staff:<email>`, ADR 0075).
 */
export type ProvisioningActor =
  'network' | 'worker' | 'customer' | `operator:${string}` | `staff:${string}`;

/**
 * A console staff member's command (ADR 0075): the audit entry the command writes in its
 * transaction names the staff account, and a port correction carries the staff member's reason.
 */
export interface StaffCommand {
  actor: `staff:${string}`;
  staffUserId: string;
}

export type { OrderState } from './repo';

/** One provisioned order as an operator lists it. */
export interface ProvisioningOrderSummary {
  orderId: string;
  kind: OrderRow['kind'];
  userId: string;
  msisdn: string | null;
  delivery: SimDelivery | null;
  isPorting: boolean;
  isComplete: boolean;
  isCancelled: boolean;
  /** The newest step, null before any. */
  lastStep: ProvisioningStepKey | null;
  /** When the newest step happened. */
  lastStepAt: Date | null;
  /**
   * Why the newest step happened, when it says: a network code (PORT_SIMCARD_MISMATCH,
   * NETWORK_ORDER_FAILED) and the words on it (an operator's, or a failed network order's).
   */
  lastReason: { code: string | null; text: string | null } | null;
  /** The step the order performs next, null when complete or stopped by a failure. */
  nextStep: ProvisioningStepKey | null;
  waitingFor: ProvisioningWaitingFor;
  /** When the worker acts on it next (null: it waits on the customer or an operator). */
  nextAt: Date | null;
  portDate: Date | null;
  createdAt: Date;
}

/** One order with every step, who performed it and why (`npm run operator -- show`). */
export interface ProvisioningOrderDescription extends ProvisioningOrderSummary {
  steps: {
    step: ProvisioningStepKey;
    at: Date;
    actor: string;
    reasonCode: string | null;
    reasonText: string | null;
  }[];
  upcoming: ProvisioningStepKey[];
  pickupLocationId: string | null;
  shipping: { address: string | null; postCode: string | null; city: string | null } | null;
  simcardNumber: string | null;
  portingSimcardNumber: string | null;
  esimMatchingId: string | null;
  lineId: string | null;
  accountId: string | null;
}

export interface SimChangeInput {
  /** The customer placing it (the line's user or the account owner). */
  userId: string;
  lineId: string;
  delivery: Exclude<SimDelivery, 'own_card'>;
  /** The shop, for `pickup` (PICKUP_LOCATION_NOT_FOUND when it is not on the list). */
  pickupLocationId?: string | null;
  /** Where the card goes, for `home`. */
  shipping?: { address: string; postCode: string; city: string } | null;
  /** The request that placed it (`placeUnpaidOnce`), so a retry answers this order. */
  idempotencyKey?: string | null;
  requestHash?: string | null;
}

/** The network call of a step by name (`esim_ready`, `issueSim`, …): its key and transaction. */
type CallOf = (name: string) => NetworkCall;

/**
 * A network call of a step. Its own answers pass through (the network has not finished, or it
 * failed the order); anything else — the network could not be reached, or answered nonsense —
 * is 503 NETWORK_UNAVAILABLE, so a command that waits on it says so and the worker tries later.
 */
async function asked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      error instanceof NetworkPendingError ||
      error instanceof NetworkOrderFailedError ||
      error instanceof AppError
    )
      throw error;
    throw new AppError('NETWORK_UNAVAILABLE', { cause: error });
  }
}

/** An e-mail to send once the step's transaction has committed. */
interface PendingEmail {
  userId: string;
  subject: Bilingual;
  body: Bilingual;
}

/** The step written to an order, the first instant after the previous step (a stable order). */
function stepTime(steps: readonly ProvisioningStepRow[], now: Date): Date {
  const last = steps.at(-1);
  return last && last.at.getTime() >= now.getTime() ? new Date(last.at.getTime() + 1) : now;
}

/** A step's code and words, when it has either. */
function reasonOf(step: ProvisioningStepRow | undefined): ProvisioningOrderSummary['lastReason'] {
  return step && (step.reasonCode || step.reasonText)
    ? { code: step.reasonCode, text: step.reasonText }
    : null;
}

function summaryOf(row: OrderRow, steps: readonly ProvisioningStepRow[]): ProvisioningOrderSummary {
  const done = steps.map((s) => s.step);
  const stopped =
    row.isComplete || row.isCancelled || (row.provisioningWaitingFor ?? 'none') === 'none';
  return {
    orderId: row.id,
    kind: row.kind,
    userId: row.userId,
    msisdn: row.msisdn,
    delivery: row.simDelivery,
    isPorting: row.isPorting,
    isComplete: row.isComplete,
    isCancelled: row.isCancelled,
    lastStep: done.at(-1) ?? null,
    lastStepAt: steps.at(-1)?.at ?? null,
    lastReason: reasonOf(steps.at(-1)),
    nextStep: stopped ? null : nextStep(row, done),
    waitingFor: row.provisioningWaitingFor ?? 'none',
    nextAt: row.provisioningNextAt,
    portDate: row.portDate,
    createdAt: row.createdAt,
  };
}

/**
 * Creates a `sim_change` order for an existing line (a replacement SIM or a switch to eSIM) and
 * its `received` step, inside the caller's transaction. The line keeps its old SIM until the
 * order completes (`esim_ready` → `active`, or `sim_ready_for_pickup` / `sim_sent` → `active`);
 * then its SIM fields are replaced and the old SIM stops. NOT_FOUND for a line that is not in
 * service, ORDER_PROCESSING when the line already has an open order. The in-app notification is
 * written here; no e-mail (the caller's answer tells the customer).
 */
export async function placeSimChange(
  tx: Db,
  input: SimChangeInput & { now: Date; stepS: number },
): Promise<OrderRow> {
  const line = await findLine(tx, input.lineId);
  if (!line || line.status === 'cancelled')
    throw new AppError('NOT_FOUND', {
      field: 'lineId',
      detail: `no line ${input.lineId} in service`,
    });
  if (line.status === 'processing' || (await findOpenOrderOfLine(tx, line.id)))
    throw new AppError('ORDER_PROCESSING', { detail: `line ${line.id} is being set up` });
  // The number lock (issue 32, ADR 0076) refuses every path to a new SIM: the customer's, the
  // staff's and the operator's alike.
  if (isLockedAt(line, input.now))
    throw new AppError('NUMBER_LOCKED', { detail: `line ${line.id} is locked` });
  if (input.delivery === 'pickup') {
    const [shop] = await findPickupLocations(tx, [input.pickupLocationId ?? '']);
    if (!shop) throw new AppError('PICKUP_LOCATION_NOT_FOUND', { field: 'simPickupLocationId' });
  }
  const { now } = input;
  const order = await insertOrder(tx, {
    userId: input.userId,
    accountId: line.accountId,
    lineId: line.id,
    kind: 'sim_change',
    msisdn: line.msisdn,
    simDelivery: input.delivery,
    simPickupLocationId: input.delivery === 'pickup' ? (input.pickupLocationId ?? null) : null,
    shippingAddress: input.delivery === 'home' ? (input.shipping?.address ?? null) : null,
    shippingPostCode: input.delivery === 'home' ? (input.shipping?.postCode ?? null) : null,
    shippingCity: input.delivery === 'home' ? (input.shipping?.city ?? null) : null,
    provisioningWaitingFor: 'network',
    provisioningNextAt: new Date(now.getTime() + input.stepS * 1000),
    createdAt: now,
    idempotencyKey: input.idempotencyKey ?? null,
    requestHash: input.requestHash ?? null,
  });
  await insertStep(tx, { orderId: order.id, step: 'received', at: now, actor: 'customer' });
  const message = stepMessage('received', { kind: 'sim_change', msisdn: line.msisdn });
  if (message) await notify(tx, order, message, now);
  // The number's user hears of it whoever placed it (ADR 0076: "was it not you?").
  const account = line.accountId ? await findAccount(tx, line.accountId) : undefined;
  const told = [...new Set([line.userId, account?.ownerUserId].filter((id): id is string => !!id))];
  await insertNotifications(
    tx,
    told.map((userId) => ({
      userId,
      type: 'sim_changed' as const,
      params: {
        phoneNumber: line.msisdn,
        outcome: input.delivery === 'esim' ? 'esim' : 'physical',
      },
      link: null,
      createdAt: now,
    })),
  );
  await bumpUserVersions(tx, told);
  return order;
}

/** The in-app notification of a step (both languages; read in the reader's). */
async function notify(
  tx: Db,
  order: OrderRow,
  message: { title: Bilingual; body: Bilingual },
  now: Date,
  type: 'subscription' | 'order_completed' = 'subscription',
): Promise<void> {
  await insertNotifications(tx, [
    {
      userId: order.userId,
      type,
      params: { phoneNumber: order.msisdn ?? undefined, title: message.title, body: message.body },
      link: `/menu/bilegingar/${order.id}`,
      createdAt: now,
    },
  ]);
  await bumpUserVersions(tx, [order.userId]);
}

export interface ProvisioningDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  network: NetworkAdapter;
  email: EmailSender;
  background: BackgroundTasks;
  /** PROVISIONING_SIM_CONFIRM_S: a physical SIM becomes active by itself after this. */
  simConfirmS: number;
  /**
   * Carries out a lifecycle order (a plan change, a transfer: ADR 0056) when it becomes
   * `active` and says what the customer is told (lifecycle/apply.ts, injected so that
   * provisioning does not import the lifecycle that imports it).
   */
  applyLifecycle?: (
    tx: Db,
    order: OrderRow,
    at: Date,
  ) => Promise<{ title: Bilingual; body: Bilingual }>;
}

/** The provisioning service: the worker's round, customer steps and the operator's commands. */
export function createProvisioningService(deps: ProvisioningDeps) {
  const { db, now, network, log } = deps;
  const timing: Timing = { stepS: network.stepS, simConfirmS: deps.simConfirmS };

  /** Sends the e-mails of committed steps in the customer's language (failures are logged). */
  function sendEmails(pending: readonly PendingEmail[]): void {
    for (const mail of pending) {
      deps.background.run('provisioning e-mail', async () => {
        const user = await findUserById(db, mail.userId);
        if (!user) return;
        const locale: Locale = user.locale === 'en' ? 'en' : 'fo';
        await deps.email.send({
          to: user.email,
          ...plainEmail(locale, user.firstname, mail.subject[locale], mail.body[locale]),
        });
      });
    }
  }

  /**
   * Performs `step` on the locked order: its effect through the network, the step row, the
   * order's waiting state and due time, the notification. A port request the other provider
   * rejects becomes `port_rejected`; a network order that failed (TMF641, ADR 0082) becomes
   * `failed` by the network with its reason for staff. Returns the e-mail to send after the
   * commit. The network is asked first, before anything is written: when it has not finished
   * (NetworkPendingError, thrown on) nothing of the step has happened.
   */
  async function perform(
    tx: Db,
    order: OrderRow,
    wanted: ProvisioningStepKey,
    actor: ProvisioningActor,
    reason: string | null,
  ): Promise<PendingEmail[]> {
    const done = await findSteps(tx, [order.id]);
    const at = stepTime(done, now());
    // Each failure or rejected port starts a new attempt, so the network gets new orders.
    const attempt = done.filter((s) => s.step === 'failed' || s.step === 'port_rejected').length;
    const call: CallOf = (name) => ({ key: orderCallKey(order.id, name, attempt), tx });
    let step = wanted;
    let by: string = actor;
    let reasonCode: string | null = null;
    let reasonText = reason;
    let portDate = order.portDate;
    let esimMatchingId = order.esimMatchingId;
    const msisdn = order.msisdn ?? '';
    let lifecycleMessage: { title: Bilingual; body: Bilingual } | null = null;
    try {
      switch (wanted) {
        case 'esim_ready': {
          const profile = await asked(() => network.prepareEsim(msisdn, call('esim_ready')));
          esimMatchingId = profile.matchingId;
          if (order.kind !== 'sim_change' && order.lineId)
            await updateLine(tx, order.lineId, {
              simType: 'esim',
              esimMatchingId: profile.matchingId,
            });
          break;
        }
        case 'port_date_set': {
          const answer = await asked(() =>
            network.requestPort(
              msisdn,
              order.portingSimcardNumber ?? '',
              at,
              call('port_date_set'),
            ),
          );
          if (answer.status === 'accepted') portDate = answer.portDate;
          else {
            step = 'port_rejected';
            reasonCode = answer.code;
          }
          break;
        }
        case 'active':
          if (order.lifecycleAction !== null) {
            if (!deps.applyLifecycle) throw new Error('provisioning cannot apply lifecycle orders');
            lifecycleMessage = await deps.applyLifecycle(tx, order, at);
            await completeOrder(tx, order.id, at);
          } else esimMatchingId = await activate(tx, order, at, call);
          break;
        default:
          break;
      }
    } catch (error) {
      if (!(error instanceof NetworkOrderFailedError)) throw error;
      // The network's own words are for staff (the console's timeline and queue); the
      // customer reads what the code says (texts.ts).
      log.warn(
        { orderId: order.id, step: wanted, key: error.key, state: error.state, code: error.code },
        'provisioning: the network failed the step; the order stops until retried',
      );
      step = 'failed';
      by = 'network';
      reasonCode = NETWORK_ORDER_FAILED;
      reasonText = error.code ? `${error.code}: ${error.reason}` : error.reason;
      portDate = order.portDate;
      esimMatchingId = order.esimMatchingId;
    }
    await insertStep(tx, {
      orderId: order.id,
      step,
      at,
      actor: by,
      reasonCode,
      reasonText,
    });
    const wait = waitAfter(order, step, at, timing, portDate);
    await updateOrder(tx, order.id, {
      provisioningWaitingFor: wait.waitingFor,
      provisioningNextAt: wait.nextAt,
      portDate,
      esimMatchingId,
    });
    const shop =
      step === 'sim_ready_for_pickup' && order.simPickupLocationId
        ? (await findPickupLocations(tx, [order.simPickupLocationId]))[0]
        : undefined;
    const reasonWords: Bilingual | null =
      reasonCode === NETWORK_ORDER_FAILED
        ? customerReason(reasonCode)
        : reason
          ? { fo: reason, en: reason }
          : null;
    const message =
      lifecycleMessage ??
      stepMessage(step, {
        kind: order.kind,
        msisdn,
        shop: shop
          ? { name: shop.name, address: `${shop.address}, ${shop.postCode} ${shop.city}` }
          : null,
        shippingAddress: order.shippingAddress
          ? `${order.shippingAddress}, ${order.shippingPostCode ?? ''} ${order.shippingCity ?? ''}`.trim()
          : null,
        portDate,
        confirmSim: wait.waitingFor === 'customer_sim',
        reason: reasonWords,
      });
    if (!message) {
      // A step without a message still moves the order the customer's app shows.
      await bumpUserVersions(tx, [order.userId]);
      return [];
    }
    await notify(tx, order, message, at, step === 'active' ? 'order_completed' : 'subscription');
    return [{ userId: order.userId, subject: message.title, body: message.body }];
  }

  /**
   * The order completes: the number is put in service on its SIM (the old SIM of a `sim_change`
   * stops), the line is active with its ICCID, PIN and PUK or its eSIM profile, a new account
   * gets its plan, EU package and `active`, a new line its balance of the month, and the order
   * is complete. Returns the eSIM matching id (prepared now if no `esim_ready` step ran).
   */
  async function activate(tx: Db, order: OrderRow, at: Date, call: CallOf): Promise<string | null> {
    const lineId = order.lineId;
    if (!lineId) throw new Error(`order ${order.id} has no line`);
    const line = await findLine(tx, lineId);
    if (!line) throw new Error(`order ${order.id}: line ${lineId} is gone`);
    const msisdn = order.msisdn ?? line.msisdn;
    let matchingId = order.esimMatchingId;
    let sim: Parameters<typeof updateLine>[2];
    switch (order.simDelivery) {
      case 'esim':
        matchingId ??= (await asked(() => network.prepareEsim(msisdn, call('prepareEsim'))))
          .matchingId;
        sim = {
          simType: 'esim',
          esimMatchingId: matchingId,
          esimInstalled: true,
          iccid: null,
          simPin: null,
          simPuk: null,
        };
        break;
      case 'own_card':
        sim = {
          simType: 'physical',
          iccid: order.simcardNumber,
          simPin: null,
          simPuk: null,
          esimMatchingId: null,
          esimInstalled: false,
        };
        break;
      default: {
        const card = await asked(() => network.issueSim(msisdn, call('issueSim')));
        sim = {
          simType: 'physical',
          iccid: card.iccid,
          simPin: card.pin,
          simPuk: card.puk,
          esimMatchingId: null,
          esimInstalled: false,
        };
      }
    }
    // Each call is its own network order with its own key: when the network has not finished
    // one, the step is asked again later and the calls already done are not repeated.
    await asked(() =>
      network.activate(
        { msisdn, iccid: sim.iccid ?? null, esimMatchingId: sim.esimMatchingId ?? null },
        call('activate'),
      ),
    );
    const isNewLine = order.kind !== 'sim_change';
    await updateLine(tx, lineId, {
      ...sim,
      // The SIM swap's date (ADR 0076, CAMARA SIM Swap): when the new SIM became active.
      ...(isNewLine ? {} : { simChangedAt: at }),
      ...(isNewLine
        ? { status: 'active', statusChangedAt: at, activatedAt: line.activatedAt ?? at }
        : {}),
    });
    if (isNewLine) {
      const account = line.accountId ? await findAccount(tx, line.accountId) : undefined;
      if (account && order.kind === 'new_subscription' && order.isMainSubscription) {
        await updateAccount(tx, account.id, {
          status: 'active',
          statusChangedAt: at,
          planId: order.planId ?? account.planId,
          euPackage: order.euPackage,
        });
      }
      const planId = line.planId ?? order.planId ?? account?.planId ?? null;
      const [plan] = planId ? await findPlansByIds(tx, [planId]) : [];
      const euPackage =
        order.kind === 'new_subscription' ? order.euPackage : (account?.euPackage ?? false);
      if (plan)
        await insertMissingBalances(tx, [
          {
            lineId,
            periodStart: startOfMonth(at),
            ...initialBuckets(
              plan.plan.dataMb,
              euPackage ? (plan.plan.euPackageDataMb ?? null) : null,
            ),
            updatedAt: at,
          },
        ]);
    } else {
      await insertActions(tx, [
        { userId: order.userId, lineId, type: 'sim_changed', payload: {}, createdAt: at },
      ]);
    }
    await completeOrder(tx, order.id, at);
    return matchingId;
  }

  /**
   * Writes an operator's command to `operator_actions` (in the command's transaction): one entry
   * per command. A console staff member's is `order.<verb>` with their account (ADR 0075).
   */
  async function recordOperator(
    tx: Db,
    actor: ProvisioningActor,
    verb: string,
    orderId: string,
    reason: string | null,
    staffUserId?: string | null,
    before?: { order: OrderRow; steps: readonly ProvisioningStepKey[] },
  ): Promise<void> {
    if (actor.startsWith('staff:')) {
      await recordAudit(tx, {
        actor,
        staffUserId: staffUserId ?? null,
        kind: 'change',
        action: `order.${verb}`,
        targetType: 'order',
        targetId: orderId,
        reason,
        // Where the order stood when the command was given: the console reads whether a
        // rejected port had been corrected before (staff/orders-service.ts).
        details: before
          ? {
              lastStep: before.steps.at(-1) ?? null,
              waitingFor: before.order.provisioningWaitingFor,
              nextAt: before.order.provisioningNextAt?.toISOString() ?? null,
            }
          : null,
        at: now(),
      });
      return;
    }
    if (!actor.startsWith('operator:')) return;
    // The command line's entry keeps its plain verb (`advance`, …), as `operator actions` prints it.
    await recordAudit(tx, {
      actor: actor.slice('operator:'.length),
      kind: 'change',
      action: verb,
      targetType: 'order',
      targetId: orderId,
      reason,
      at: now(),
    });
  }

  const notFound = (id: string) =>
    new AppError('NOT_FOUND', { field: 'id', detail: `no provisioned order ${id}` });
  const notWaiting = (order: OrderRow, what: string) =>
    new AppError('ORDER_NOT_WAITING', {
      detail: `order ${order.id} waits for ${order.provisioningWaitingFor ?? 'nothing'}, not ${what}`,
    });

  /**
   * Runs `work` on the locked order in one transaction (NOT_FOUND for an unknown id, or one the
   * customer `userId` did not place), then sends the e-mails of its steps.
   */
  async function onOrder(
    id: string,
    userId: string | null,
    work: (tx: Db, order: OrderRow, steps: ProvisioningStepKey[]) => Promise<PendingEmail[]>,
  ): Promise<void> {
    if (!isUuid(id)) throw notFound(id);
    const pending = await db.transaction(async (tx) => {
      const order = await lockProvisionedOrder(tx, id);
      if (!order || (userId !== null && order.userId !== userId)) throw notFound(id);
      const steps = (await findSteps(tx, [order.id])).map((s) => s.step);
      try {
        return await work(tx, order, steps);
      } catch (error) {
        if (!(error instanceof NetworkPendingError)) throw error;
        // The network is on it (a TMF641 order not finished yet): nothing of the step happened,
        // the order now waits on the network and the worker performs its next step when the
        // network answers. Committed, so the order the network has is not forgotten.
        await updateOrder(tx, order.id, {
          provisioningWaitingFor: 'network',
          provisioningNextAt: retryAt(error),
        });
        await bumpUserVersions(tx, [order.userId]);
        return [];
      }
    });
    sendEmails(pending);
  }

  const isOpen = (order: OrderRow) => !order.isComplete && !order.isCancelled;
  /** When to ask the network again (at least a second on: not twice in one round). */
  const retryAt = (error: NetworkPendingError) =>
    new Date(now().getTime() + Math.max(error.retryAfterS, 1) * 1000);

  async function orderDto(id: string, locale: Locale): Promise<Order> {
    const row = await findProvisionedOrder(db, id);
    if (!row) throw notFound(id);
    const [dto] = await toOrderDtos(db, [row], locale);
    if (!dto) throw notFound(id);
    return dto;
  }

  async function describe(orderId: string): Promise<ProvisioningOrderDescription> {
    if (!isUuid(orderId)) throw notFound(orderId);
    const row = await findProvisionedOrder(db, orderId);
    if (!row) throw notFound(orderId);
    const steps = await findSteps(db, [row.id]);
    const done = steps.map((s) => s.step);
    return {
      ...summaryOf(row, steps),
      steps: steps.map((s) => ({
        step: s.step,
        at: s.at,
        actor: s.actor,
        reasonCode: s.reasonCode,
        reasonText: s.reasonText,
      })),
      upcoming:
        row.isComplete || row.isCancelled || (row.provisioningWaitingFor ?? 'none') === 'none'
          ? []
          : upcomingSteps(row, done),
      pickupLocationId: row.simPickupLocationId,
      shipping:
        row.simDelivery === 'home'
          ? { address: row.shippingAddress, postCode: row.shippingPostCode, city: row.shippingCity }
          : null,
      simcardNumber: row.simcardNumber,
      portingSimcardNumber: row.portingSimcardNumber,
      esimMatchingId: row.esimMatchingId,
      lineId: row.lineId,
      accountId: row.accountId,
    };
  }

  return {
    timing,

    /** GET /api/sim-pickup-locations: the shops, opening hours in `locale`. */
    async pickupLocations(locale: Locale): Promise<SimPickupLocation[]> {
      return (await listPickupLocations(db)).map((row) => toPickupLocationDto(row, locale));
    },

    /**
     * One round of the worker: performs the next step of every due order (up to `limit`), each
     * claimed with SKIP LOCKED in its own transaction. An order whose step throws is put back
     * one step later (and logged) so one broken order cannot stall the rest. An order whose
     * network call has not finished (a TMF641 order still in progress) is neither: nothing is
     * written but its next look, TMF641_POLL_S on (the network's event makes it due sooner).
     */
    async runDue(limit = 100): Promise<{ performed: number; failed: number }> {
      let performed = 0;
      let failed = 0;
      for (let i = 0; i < limit; i += 1) {
        let claimed: string | undefined;
        try {
          const pending = await db.transaction(async (tx) => {
            const order = await claimDueOrder(tx, now());
            if (!order) return null;
            claimed = order.id;
            const steps = (await findSteps(tx, [order.id])).map((s) => s.step);
            const next = nextStep(order, steps);
            if (next === null) {
              await updateOrder(tx, order.id, {
                provisioningWaitingFor: 'none',
                provisioningNextAt: null,
              });
              return [];
            }
            const actor = order.provisioningWaitingFor === 'customer_sim' ? 'worker' : 'network';
            try {
              return await perform(tx, order, next, actor, null);
            } catch (error) {
              if (!(error instanceof NetworkPendingError)) throw error;
              // Committed with the order's next look: on PGlite the adapter recorded the
              // network's order in this transaction, and it must not be forgotten.
              await updateOrder(tx, order.id, { provisioningNextAt: retryAt(error) });
              log.debug(
                { orderId: order.id, step: next, key: error.key, state: error.state },
                'provisioning: still waiting on the network',
              );
              return 'waiting' as const;
            }
          });
          if (pending === null) break;
          if (pending === 'waiting') continue;
          performed += 1;
          sendEmails(pending);
        } catch (error) {
          if (claimed === undefined) throw error;
          failed += 1;
          log.error({ err: error, orderId: claimed }, 'provisioning step failed; retried later');
          const id = claimed;
          await db.transaction(async (tx) => {
            await updateOrder(tx, id, {
              provisioningNextAt: new Date(now().getTime() + Math.max(timing.stepS, 1) * 1000),
            });
          });
        }
      }
      return { performed, failed };
    },

    /* The customer's steps (the order's own customer only; NOT_FOUND for anyone else). */

    /** POST /api/orders/{id}/confirm-sim: the SIM works; the line becomes active now. */
    async confirmSim(userId: string, orderId: string, locale: Locale): Promise<Order> {
      await onOrder(orderId, userId, async (tx, order) => {
        if (!isOpen(order) || order.provisioningWaitingFor !== 'customer_sim')
          throw notWaiting(order, 'customer_sim');
        return perform(tx, order, 'active', 'customer', null);
      });
      return orderDto(orderId, locale);
    },

    /**
     * PATCH /api/orders/{id}/porting: the corrected SIM card number after a rejected port; the
     * port is asked again one step later.
     */
    async correctPorting(
      userId: string,
      orderId: string,
      simcardNumber: string,
      locale: Locale,
      /** A staff member entering it on the customer's behalf (audited in the same transaction). */
      staff?: StaffCommand & { reason: string },
    ): Promise<Order> {
      await onOrder(orderId, userId, async (tx, order) => {
        if (!isOpen(order) || order.provisioningWaitingFor !== 'customer_correction')
          throw notWaiting(order, 'customer_correction');
        await updateOrder(tx, order.id, {
          portingSimcardNumber: simcardNumber,
          provisioningWaitingFor: 'network',
          provisioningNextAt: new Date(now().getTime() + timing.stepS * 1000),
        });
        if (staff)
          await recordAudit(tx, {
            actor: staff.actor,
            staffUserId: staff.staffUserId,
            kind: 'change',
            action: 'order.port-correction',
            targetType: 'order',
            targetId: order.id,
            reason: staff.reason,
            details: { simcardNumber, previous: order.portingSimcardNumber },
            at: now(),
          });
        // The order waits on the network again: every device of the customer's polls see it.
        await bumpUserVersions(tx, [order.userId]);
        return [];
      });
      return orderDto(orderId, locale);
    },

    /* The operator's commands (`npm run operator`). An `operator:<name>` actor is recorded in
     * operator_actions in the same transaction; NOT_FOUND for an unknown order,
     * ORDER_NOT_WAITING when the command does not apply to the order's state. */

    /** Provisioned orders in a state, newest first (at most 500, or a page's `limit`). */
    async listOrders(
      state: OrderState = 'open',
      page?: OrderPage,
    ): Promise<ProvisioningOrderSummary[]> {
      const rows = await listOrdersByState(db, state, page);
      const steps = await findSteps(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) =>
        summaryOf(
          row,
          steps.filter((s) => s.orderId === row.id),
        ),
      );
    },

    /** One order with all its steps (who, when, why) and what comes next. */
    describe,

    /** Performs the order's next step now (whatever it waits on), e.g. the shop handed the SIM. */
    async advance(
      orderId: string,
      actor: ProvisioningActor,
      reason?: string,
      staffUserId?: string | null,
    ): Promise<ProvisioningOrderDescription> {
      await onOrder(orderId, null, async (tx, order, steps) => {
        const next = isOpen(order) ? nextStep(order, steps) : null;
        if (next === null) throw notWaiting(order, 'a next step');
        await recordOperator(tx, actor, 'advance', order.id, reason ?? null, staffUserId, {
          order,
          steps,
        });
        return perform(tx, order, next, actor, reason ?? null);
      });
      return describe(orderId);
    },

    /** Stops the order with step `failed`; the customer sees `reason`. */
    async fail(
      orderId: string,
      actor: ProvisioningActor,
      reason: string,
      staffUserId?: string | null,
    ): Promise<ProvisioningOrderDescription> {
      await onOrder(orderId, null, async (tx, order, steps) => {
        if (!isOpen(order) || steps.at(-1) === 'failed') throw notWaiting(order, 'a failure');
        await recordOperator(tx, actor, 'fail', order.id, reason, staffUserId, { order, steps });
        return perform(tx, order, 'failed', actor, reason);
      });
      return describe(orderId);
    },

    /**
     * After `failed` or `port_rejected`: the step that was due is due again now (a rejected port
     * is asked again with the SIM card number the order has).
     */
    async retry(
      orderId: string,
      actor: ProvisioningActor,
      reason?: string,
      staffUserId?: string | null,
    ): Promise<ProvisioningOrderDescription> {
      await onOrder(orderId, null, async (tx, order, steps) => {
        const last = steps.at(-1);
        if (!isOpen(order) || (last !== 'failed' && last !== 'port_rejected'))
          throw notWaiting(order, 'a retry');
        await recordOperator(tx, actor, 'retry', order.id, reason ?? null, staffUserId, {
          order,
          steps,
        });
        await updateOrder(tx, order.id, {
          provisioningWaitingFor: 'network',
          provisioningNextAt: now(),
        });
        // No step yet (the worker performs it), but the order the customer sees moved: it waits
        // on the network again, due now. Their polls must see that.
        await bumpUserVersions(tx, [order.userId]);
        return [];
      });
      return describe(orderId);
    },

    /** Completes the order now (step `active`), skipping the steps still to come. */
    async complete(
      orderId: string,
      actor: ProvisioningActor,
      reason?: string,
      staffUserId?: string | null,
    ): Promise<ProvisioningOrderDescription> {
      await onOrder(orderId, null, async (tx, order, steps) => {
        if (!isOpen(order)) throw notWaiting(order, 'completion');
        await recordOperator(tx, actor, 'complete', order.id, reason ?? null, staffUserId, {
          order,
          steps,
        });
        return perform(tx, order, 'active', actor, reason ?? null);
      });
      return describe(orderId);
    },

    /** {@link placeSimChange} with this service's clock and step time. */
    placeSimChange(tx: Db, input: SimChangeInput): Promise<OrderRow> {
      return placeSimChange(tx, { ...input, now: now(), stepS: timing.stepS });
    },

    /** The steps every order of this shape goes through (for the operator's help text). */
    stepPlan,

    /** Sends the e-mails of steps committed elsewhere (the sign-up's `received`). */
    sendEmails: (pending: readonly PendingEmail[]) => sendEmails(pending),
  };
}

export type ProvisioningService = ReturnType<typeof createProvisioningService>;
export type { PendingEmail };
