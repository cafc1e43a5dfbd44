import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { NOTIFICATIONS_PAGE_SIZE } from '@alda/contract/constants';
import type { PaymentUpdated } from '@alda/contract/schemas/orders';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUser } from '../../src/seed/demo-users';
import { STATUS_REQUEST } from '../../../../bench/status-request';
import { call, clock, PaymentWatch, submitCardForm, UnexpectedAnswer, type Recorder } from './load';

/*
 * Virtual customers of the scale test (issue 44 §4), doing what the app does
 * (apps/web/src): sign in with e-mail and password; load home (the six account resources of
 * SPEC §1 step 5 and the status check); poll notifications and data requests with If-None-Match
 * (SPEC §4, 60 s in the app, `pollIntervalMs` here); buy an extra package or top up with the test
 * card and wait for the outcome on the payment hub. Every request goes through the balancer and
 * is recorded (load.ts).
 *
 * The demo has five customers; each virtual customer is one device of one of them, with an
 * address of its own (X-Forwarded-For through HAProxy, trusted with TRUST_PROXY).
 */

/** What a demo customer buys, on which of their own numbers (SPEC §1). */
const BUYS: Record<string, { kind: 'package' | 'top-up'; phoneNumbers: string[] }> = {
  Jóannes: { kind: 'package', phoneNumbers: ['214455', '214466'] },
  Guðrun: { kind: 'package', phoneNumbers: ['557812'] },
  // Rói's line is prepaid (talutíð): he tops up.
  Rói: { kind: 'top-up', phoneNumbers: ['779031'] },
};

/** The extra package bought (1 GB domestic, demo catalogue) and the top-up amount (50 kr). */
export const PACKAGE_ID = 'data-1';
export const TOP_UP_OERE = 5_000;

/** The six account resources the app loads after sign-in, and that home shows. */
const HOME = [
  '/api/actions',
  '/api/packages',
  '/api/subscriptions',
  '/api/plans',
  '/api/orders',
  '/api/agreements',
];

const POLLS = [
  `/api/notifications?page=0&perPage=${NOTIFICATIONS_PAGE_SIZE}`,
  '/api/data-transfers',
];

export interface ScenarioOptions {
  /** The balancer's URL. */
  base: string;
  /** Virtual customers (devices). */
  customers: number;
  /** Between a customer's polls (the app: 60 s). */
  pollIntervalMs: number;
  /** Between a customer's sign-ins (a device signing in again). */
  signInEveryMs: number;
  /** Between the purchases of a customer who buys (about; each gap is drawn ±50 %). */
  purchaseEveryMs: number;
  /** The customer's time on the card page, between listening on the hub and paying. */
  payDelayMs: readonly [number, number];
  /** Customers start within this time (a ramp, not a stampede). */
  rampMs: number;
  /** How long a customer waits on the hub for the outcome before giving up. */
  outcomeTimeoutMs: number;
  /** The hub client's automatic reconnect delays (the app: HUB_RECONNECT_DELAYS_MS). */
  reconnectDelaysMs: readonly number[];
}

/** One purchase the test made, and what its customer learned of it. */
export interface Purchase {
  id: number;
  /** The phase in which it was placed. */
  phase: string;
  kind: 'package' | 'top-up';
  userEmail: string;
  phoneNumber: string;
  /** Set once the order was placed (201). */
  orderId?: string;
  paymentUrl?: string;
  placedAt?: number;
  paidAt?: number;
  /** The hub watch of the payment. */
  watch?: PaymentWatch;
  /** The outcome the customer learned on the hub, if any. */
  outcome?: PaymentUpdated;
  learnedAt?: number;
  /** Requests that had to be sent again (same Idempotency-Key, same card page). */
  retries: number;
  /** What went wrong for the customer, if anything. */
  problems: string[];
  /** A witness of the kill (its payment released by the driver). */
  witness: boolean;
  done: boolean;
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

const between = (min: number, max: number) => min + Math.random() * (max - min);

/** Whether a failed request is worth sending again: no answer, or the balancer's 5xx. */
const retriable = (error: unknown) =>
  error instanceof UnexpectedAnswer &&
  (error.record.status === undefined || error.record.status >= 500);

class Customer {
  private accessToken: string | undefined;
  private readonly etags = new Map<string, string>();

  constructor(
    private readonly scenario: Scenario,
    readonly user: DemoUser,
    readonly ip: string,
  ) {}

  private get recorder() {
    return this.scenario.recorder;
  }
  private get options() {
    return this.scenario.options;
  }
  get buys() {
    return BUYS[this.user.firstname];
  }

  async signIn(): Promise<boolean> {
    try {
      const res = await call(
        this.recorder,
        'sign-in',
        this.options.base,
        'POST',
        '/api/auth/email-login',
        {
          ip: this.ip,
          body: { email: this.user.email, password: DEMO_PASSWORD },
        },
      );
      const token = res.data.accessToken;
      if (typeof token !== 'string') throw new Error('no access token');
      this.accessToken = token;
      // A new session: the app forgets what it polled.
      this.etags.clear();
      return true;
    } catch (error) {
      if (!(error instanceof UnexpectedAnswer)) throw error;
      return false;
    }
  }

  /** Home after sign-in: the account resources and the status check, at once as the app does. */
  async home(): Promise<void> {
    const token = this.accessToken;
    if (!token) return;
    const { base } = this.options;
    await Promise.all([
      ...HOME.map((path) => call(this.recorder, 'home', base, 'GET', path, { token, ip: this.ip })),
      call(this.recorder, 'home', base, 'POST', '/api/status', {
        token,
        ip: this.ip,
        body: STATUS_REQUEST,
      }),
    ]).catch((error: unknown) => {
      if (!(error instanceof UnexpectedAnswer)) throw error;
    });
  }

  /** One poll: notifications and data requests, each with the ETag of its last answer. */
  async poll(): Promise<void> {
    const token = this.accessToken;
    if (!token) return;
    await Promise.all(
      POLLS.map(async (path) => {
        try {
          const res = await call(this.recorder, 'poll', this.options.base, 'GET', path, {
            token,
            ip: this.ip,
            etag: this.etags.get(path),
            expect: [200, 304],
          });
          const etag = res.headers.get('etag');
          if (res.status === 200 && etag) this.etags.set(path, etag);
        } catch (error) {
          if (!(error instanceof UnexpectedAnswer)) throw error;
        }
      }),
    );
  }

  /**
   * Sends a request again after a failure without an answer or with a 5xx, as a customer taps
   * again (the Idempotency-Key makes the purchase happen once).
   */
  private async withRetries<T>(purchase: Purchase, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries += 1) {
      try {
        return await attempt();
      } catch (error) {
        if (!retriable(error) || tries >= 10) throw error;
        purchase.retries += 1;
        await pause(250);
      }
    }
  }

  /**
   * A purchase with the test card (SPEC §4 "Payment flow"): place the order, listen to it on the
   * hub, pay on the card page (after `release`, or the customer's time on the page), wait for
   * the outcome on the hub, then load what changed.
   */
  async purchase(
    options: {
      /** Pay once this resolves (a witness), not after the customer's time on the card page. */
      release?: Promise<void>;
      onListening?: () => void;
      onPlaced?: (purchase: Purchase) => void;
      /** The hub client's reconnect delays, if not the scenario's. */
      reconnectDelaysMs?: readonly number[];
    } = {},
  ): Promise<Purchase> {
    const { release, onListening, onPlaced } = options;
    const buys = this.buys;
    if (!buys) throw new Error(`${this.user.firstname} buys nothing`);
    const phoneNumber = buys.phoneNumbers[
      Math.floor(Math.random() * buys.phoneNumbers.length)
    ] as string;
    const purchase = this.scenario.newPurchase({
      kind: buys.kind,
      userEmail: this.user.email,
      phoneNumber,
      witness: release !== undefined,
    });
    onPlaced?.(purchase);
    const { base } = this.options;
    try {
      const token = this.accessToken;
      if (!token) throw new Error('not signed in');
      const key = randomUUID();
      const placed = await this.withRetries(purchase, () =>
        buys.kind === 'package'
          ? call(this.recorder, 'purchase', base, 'POST', '/api/packages', {
              token,
              ip: this.ip,
              key,
              expect: [201],
              body: { packageId: PACKAGE_ID, phoneNumber, payWith: 'card' },
            })
          : call(this.recorder, 'purchase', base, 'POST', '/api/top-ups', {
              token,
              ip: this.ip,
              key,
              expect: [201],
              body: { phoneNumber, amount: TOP_UP_OERE, payWith: 'card' },
            }),
      );
      const orderId = (placed.data.order as { id?: unknown } | undefined)?.id;
      const paymentUrl = placed.data.paymentUrl;
      if (typeof orderId !== 'string' || typeof paymentUrl !== 'string')
        throw new Error(`no order or card page in ${JSON.stringify(placed.data)}`);
      purchase.orderId = orderId;
      purchase.paymentUrl = paymentUrl;
      purchase.placedAt = clock();

      const watch = new PaymentWatch(
        this.recorder,
        base,
        orderId,
        () => this.accessToken ?? token,
        this.ip,
        options.reconnectDelaysMs ?? this.options.reconnectDelaysMs,
      );
      purchase.watch = watch;
      if (!(await watch.start())) purchase.problems.push(...watch.problems);
      onListening?.();

      await (release ?? pause(between(...this.options.payDelayMs)));
      await this.withRetries(purchase, () => submitCardForm(this.recorder, paymentUrl, this.ip));
      purchase.paidAt = clock();

      const outcome = await Promise.race([
        watch.settledPromise,
        pause(this.options.outcomeTimeoutMs).then(() => undefined),
      ]);
      if (outcome) {
        purchase.outcome = outcome;
        purchase.learnedAt = watch.settledAt;
      } else {
        purchase.problems.push(
          `no outcome on the hub within ${this.options.outcomeTimeoutMs} ms (hub ${watch.state}; ${watch.problems.join('; ') || 'no errors'})`,
        );
      }
      await watch.stop();
      // The app reloads what the purchase changed.
      await Promise.all(
        ['/api/subscriptions', '/api/orders'].map((path) =>
          call(this.recorder, 'home', base, 'GET', path, { token: this.accessToken, ip: this.ip }),
        ),
      ).catch((error: unknown) => {
        if (!(error instanceof UnexpectedAnswer)) throw error;
      });
    } catch (error) {
      purchase.problems.push(error instanceof Error ? error.message : String(error));
      await purchase.watch?.stop();
    } finally {
      purchase.done = true;
    }
    return purchase;
  }

  /** The customer's day: sign in, home, then polls, purchases and sign-ins until `signal`. */
  async run(signal: AbortSignal, startAfterMs: number): Promise<void> {
    await pause(startAfterMs, signal);
    if (signal.aborted) return;
    while (!signal.aborted && !(await this.signIn())) await pause(1_000, signal);
    await this.home();
    const { pollIntervalMs, signInEveryMs, purchaseEveryMs } = this.options;
    const loops = [
      (async () => {
        while (!signal.aborted) {
          await this.poll();
          await pause(pollIntervalMs, signal);
        }
      })(),
      (async () => {
        for (;;) {
          await pause(between(0.5, 1.5) * signInEveryMs, signal);
          if (signal.aborted) return;
          if (await this.signIn()) await this.home();
        }
      })(),
    ];
    if (this.buys) {
      loops.push(
        (async () => {
          for (;;) {
            await pause(between(0.5, 1.5) * purchaseEveryMs, signal);
            if (signal.aborted) return;
            await this.purchase();
          }
        })(),
      );
    }
    await Promise.all(loops);
  }
}

export interface Witnesses {
  /** Their purchases (placed, listening on the hub, not paid yet). */
  purchases: Purchase[];
  /** Resolves when every witness's purchase is over. */
  done: Promise<Purchase[]>;
  /** Lets them pay. */
  release: () => void;
}

/** The virtual customers of a run. */
export class Scenario {
  readonly purchases: Purchase[] = [];
  private readonly controller = new AbortController();
  private running: Promise<void>[] = [];
  private ipCount = 0;

  constructor(
    readonly recorder: Recorder,
    readonly options: ScenarioOptions,
  ) {
    // Every customer's loops wait on this one signal.
    setMaxListeners(0, this.controller.signal);
  }

  newPurchase(fields: Pick<Purchase, 'kind' | 'userEmail' | 'phoneNumber' | 'witness'>): Purchase {
    const purchase: Purchase = {
      id: this.purchases.length + 1,
      phase: this.recorder.phase,
      retries: 0,
      problems: [],
      done: false,
      ...fields,
    };
    this.purchases.push(purchase);
    return purchase;
  }

  /** A device of `user` with an address of its own (documentation ranges, RFC 5737). */
  private device(user: DemoUser): Customer {
    const n = this.ipCount++;
    const ip = `${n < 254 ? '198.51.100' : '203.0.113'}.${(n % 254) + 1}`;
    return new Customer(this, user, ip);
  }

  /** Starts the customers (ramped over `rampMs`); they run until `stop()`. */
  start(): void {
    const { customers, rampMs } = this.options;
    for (let i = 0; i < customers; i += 1) {
      const user = DEMO_USERS[i % DEMO_USERS.length] as DemoUser;
      const customer = this.device(user);
      this.running.push(customer.run(this.controller.signal, (rampMs * i) / customers));
    }
  }

  /**
   * Customers on the payment screen when an instance goes (issue 44 §4): each signs in, places a
   * purchase and listens on the hub; this resolves when all listen, with their purchases. They
   * pay when `release` is called, and then wait for the outcome, reconnecting if their instance
   * went away meanwhile; every other one reconnects only after `lateReconnectMs`.
   */
  async witnesses(count: number, lateReconnectMs: number): Promise<Witnesses> {
    const buyers = DEMO_USERS.filter((u) => BUYS[u.firstname]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const listening: Promise<void>[] = [];
    const done: Promise<Purchase | undefined>[] = [];
    const mine: Purchase[] = [];
    for (let i = 0; i < count; i += 1) {
      const customer = this.device(buyers[i % buyers.length] as DemoUser);
      let heard!: () => void;
      listening.push(new Promise<void>((resolve) => (heard = resolve)));
      done.push(
        (async () => {
          if (!(await customer.signIn())) {
            heard();
            return undefined;
          }
          const purchase = customer.purchase({
            release: released,
            onListening: heard,
            onPlaced: (p) => mine.push(p),
            // Every other one's phone comes back late: its payment settles while it is
            // disconnected, so it can learn the outcome only from what the server answers to
            // ListenToOrder after the reconnect, not from a PaymentUpdated sent as it happens.
            ...(i % 2 === 1 ? { reconnectDelaysMs: [lateReconnectMs] } : {}),
          });
          // A purchase that fails before listening must not hold the driver up.
          void purchase.finally(heard);
          return purchase;
        })(),
      );
    }
    await Promise.all(listening);
    return {
      purchases: mine,
      done: Promise.all(done).then((all) => all.filter((p): p is Purchase => p !== undefined)),
      release,
    };
  }

  /** Stops every customer's loops; purchases under way finish (bounded by their timeouts). */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all(this.running);
    this.running = [];
  }

  /** Purchases not finished yet. */
  unfinished(): Purchase[] {
    return this.purchases.filter((p) => !p.done);
  }
}
