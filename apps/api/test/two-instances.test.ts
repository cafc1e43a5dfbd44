import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HubConnection } from '@microsoft/signalr';
import { PAYMENT_HUB_PATH } from '@alda/contract/schemas/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIN_MAX_ATTEMPTS } from '../src/modules/auth/phone-login-service';
import { POLICIES } from '../src/modules/rate-limits/policies';
import { MIGRATIONS_DIR } from '../src/paths';
import { DEMO_PASSWORD, DEMO_USERS, demoUser } from '../src/seed/demo-users';
import { createTestDatabase, usingPostgres, type TestDatabase } from './helper';
import { collectPaymentUpdates, hubClient } from './hub-helper';
import { signupBody } from './provisioning-fixtures';
import {
  freePort,
  killAllStarted,
  startApi,
  withClient,
  type ApiProcess,
} from './support/api-process';
import { armPausePoint } from './support/pause-point';
import { registrationForm } from './support/registration';
import { callJson, payOnCardPage, until, type JsonAnswer } from './support/http-json';
import { startHaproxy, type Haproxy } from './support/haproxy';

/*
 * Issue 14 part 5, "Two instances, one database": two real API processes (`startApi`, the
 * production entry point) on one fresh PostgreSQL database, behind the balancer an operator runs
 * (issue 44 §4): Debian's HAProxy with the shipped deploy/haproxy/alda.cfg, round robin without
 * stickiness, so consecutive requests of one client land on different instances. What a client
 * does goes through the balancer (and the test asserts from the `X-Alda-Server` header the config
 * adds that its requests really alternated); where a promise is about a particular instance, the
 * test addresses it directly.
 *
 * The promises: a session started on one instance is refreshed on the other; logout and a new
 * password end it on both within ADR 0057's bound; a payment webhook handled by one instance
 * reaches a payment-hub client connected to the other; the login and PIN lockouts count
 * attempts made on both; a month end run on both at once, and the provisioning workers of both,
 * do each thing once. Where two instances could race, a pause point (support/pause-point.ts)
 * holds the first one inside its transaction while the other runs, so they meet every run.
 *
 * PostgreSQL only: PGlite is one process's database; two processes cannot share it.
 */

/** ADR 0057: a session ended on one instance is refused by the others within this. */
const STALENESS_BOUND_MS = 1_000;

/**
 * Both processes: the provisioning workers on and quick (the simulated network answers at once),
 * the month-end job off — the test runs month end on both processes itself, at the same moment.
 */
const ENV = {
  PROVISIONING_POLL_MS: '100',
  PROVISIONING_STEP_S: '0',
  PROVISIONING_SIM_CONFIRM_S: '0',
  MONTH_END_INTERVAL_S: '0',
  // HAProxy appends the client's address to X-Forwarded-For (`option forwardfor`); the test puts
  // a made-up client address before it, and trusts 127.0.0.1 (HAProxy, and the test itself).
  TRUST_PROXY: '127.0.0.1',
  // A request log line per request: the test reads which instance handled the webhooks.
  LOG_LEVEL: 'info',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = JsonAnswer;

/** The balancer's address once it runs. */
let balancerUrl = '';
/** The server (`X-Alda-Server`: api1 = A, api2 = B) that answered each request made through it. */
const answeredBy: string[] = [];

/** `callJson`, noting which instance answered when the request went through the balancer. */
async function call(...args: Parameters<typeof callJson>): Promise<Answer> {
  const answer = await callJson(...args);
  if (args[0] === balancerUrl) answeredBy.push(answer.headers.get('x-alda-server') ?? 'none');
  return answer;
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

function tokensOf(answer: Answer): Tokens {
  const { accessToken, refreshToken } = answer.data;
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string')
    throw new Error(`no tokens in ${JSON.stringify(answer)}`);
  return { accessToken, refreshToken };
}

async function login(base: string, email: string, password = DEMO_PASSWORD): Promise<Tokens> {
  const res = await call(base, 'POST', '/api/auth/email-login', { body: { email, password } });
  expect(res.status, `login of ${email}`).toBe(200);
  return tokensOf(res);
}

describe.skipIf(!usingPostgres)(
  usingPostgres
    ? 'issue 44 §4: two API processes on one PostgreSQL behind HAProxy (issue 14)'
    : 'issue 44 §4: two API processes behind HAProxy (issue 14) — skipped: needs PostgreSQL (DATABASE_URL); PGlite is the database of one process, two processes cannot share it',
  () => {
    let database: TestDatabase;
    let url: string;
    let a: ApiProcess;
    let b: ApiProcess;
    let proxy: Haproxy;
    /** The server names of the instances in the balancer's backend. */
    const A = 'api1';
    const B = 'api2';
    const letter = (server: string) => ({ [A]: 'A', [B]: 'B' })[server] ?? `(${server})`;
    const open: HubConnection[] = [];
    const measured: Record<string, number> = {};

    beforeAll(async () => {
      database = await createTestDatabase();
      if (!database.url) throw new Error('no database url');
      url = database.url;
      const [portA, portB, portProxy] = [await freePort(), await freePort(), await freePort()];
      const env = {
        ...ENV,
        // Links and card pages name the balancer, as in production.
        APP_URL: `http://127.0.0.1:${portProxy}`,
        // The test provider's webhooks all go to instance A, whichever instance queued them.
        PAYMENT_WEBHOOK_URL: `http://127.0.0.1:${portA}/api/payments/webhooks/test`,
      };
      // Both at once on the empty database, as a fleet starts: each migrates (under an advisory
      // lock) and seeds the demo (insert-if-missing) — the first test checks it happened once.
      const started = performance.now();
      [a, b] = await Promise.all([
        startApi({ databaseUrl: url, port: portA, env }),
        startApi({ databaseUrl: url, port: portB, env }),
      ]);
      measured['both processes ready'] = Math.round(performance.now() - started);
      proxy = await startHaproxy({
        backends: [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`],
        port: portProxy,
      });
      balancerUrl = proxy.url;
      expect(proxy.servers).toEqual([A, B]);
    }, 120_000);

    afterAll(async () => {
      for (const connection of open) await connection.stop().catch(() => {});
      // HAProxy's count of requests (and WebSocket upgrades) it sent to each instance.
      const chosen = await proxy
        ?.serverStats()
        .then((stats) => `A ${stats[A]?.lbtot}, B ${stats[B]?.lbtot}`)
        .catch(() => '?');
      await proxy?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await killAllStarted();
      await database?.drop();
      // Read by people running the file: docs/reliability.md §5 quotes these.
      console.info(
        'two-instances timings (ms):',
        JSON.stringify(measured),
        `— through HAProxy: ${chosen} requests`,
      );
    });

    /** The balancer really took turns: every request since `mark` went to the other instance. */
    function expectAlternated(mark: number, count: number) {
      const went = answeredBy.slice(mark);
      expect(went).toHaveLength(count);
      expect(
        went.every((server, i) => (server === A || server === B) && server !== went[i - 1]),
        `requests alternated between A and B (${went.map(letter).join('')})`,
      ).toBe(true);
    }

    /** How many lines of the instance's log contain `text`. */
    const linesOf = (api: ApiProcess, text: string) =>
      api
        .output()
        .split('\n')
        .filter((line) => line.includes(text)).length;

    /**
     * Polls `api` with the access token until it is refused; fails when that takes longer than
     * ADR 0057's bound. Answers how long it took.
     */
    async function refusedWithin(api: ApiProcess, token: string, what: string) {
      const since = performance.now();
      for (;;) {
        const res = await call(api.url, 'GET', '/api/auth/me', { token });
        const ms = Math.round(performance.now() - since);
        if (res.status === 401) {
          measured[what] = ms;
          return ms;
        }
        expect(res.status).toBe(200);
        if (ms > STALENESS_BOUND_MS)
          throw new Error(
            `${what}: the access token was still accepted ${ms} ms after the session ended (ADR 0057 bound: ${STALENESS_BOUND_MS} ms)`,
          );
        await sleep(10);
      }
    }

    it('operations "Migrate": two processes starting at once on an empty database migrate and seed it once', async () => {
      const migrations = await withClient(url, (db) =>
        db.query<{ n: number; distinct: number }>(
          `select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
        ),
      );
      const journal = JSON.parse(
        await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      expect(migrations.rows[0]).toEqual({
        n: journal.entries.length,
        distinct: journal.entries.length,
      });
      const users = await withClient(url, (db) => db.query(`select 1 from users`));
      expect(users.rowCount).toBe(DEMO_USERS.length);
    });

    it('ADR 0012: a session started on A is refreshed on B and its new access token works on A; the spent token shown again on A ends it on B', async () => {
      const roi = demoUser('Rói');
      const first = await login(a.url, roi.email);
      const refreshed = await call(b.url, 'POST', '/api/auth/refresh-token', {
        body: { refreshToken: first.refreshToken },
      });
      expect(refreshed.status, 'B refreshes a token A issued').toBe(200);
      const second = tokensOf(refreshed);
      const me = await call(a.url, 'GET', '/api/auth/me', { token: second.accessToken });
      expect(me.status, 'A accepts the access token B issued').toBe(200);
      expect(me.data.email).toBe(roi.email);
      // B, which issued it, has seen it used too (and keeps that in its memory).
      expect((await call(b.url, 'GET', '/api/auth/me', { token: second.accessToken })).status).toBe(
        200,
      );

      // Reuse detection across instances: the spent token on A ends the session, B refuses it.
      const reuse = await call(a.url, 'POST', '/api/auth/refresh-token', {
        body: { refreshToken: first.refreshToken },
      });
      expect(reuse.status).toBe(401);
      await refusedWithin(b, second.accessToken, 'refresh-token reuse on A → refused on B');

      // A client through the balancer: every call lands on the other instance than the last.
      const mark = answeredBy.length;
      let tokens = await login(proxy.url, roi.email);
      for (let i = 0; i < 2; i += 1) {
        expect(
          (await call(proxy.url, 'GET', '/api/auth/me', { token: tokens.accessToken })).status,
        ).toBe(200);
        const next = await call(proxy.url, 'POST', '/api/auth/refresh-token', {
          body: { refreshToken: tokens.refreshToken },
        });
        expect(next.status).toBe(200);
        tokens = tokensOf(next);
      }
      expect(
        (await call(proxy.url, 'GET', '/api/auth/me', { token: tokens.accessToken })).status,
      ).toBe(200);
      expectAlternated(mark, 6);
    });

    it('ADR 0057: logout on A — B refuses the access token within 1 s, and the refresh token at once', async () => {
      const sunneva = demoUser('Sunneva');
      const session = await login(a.url, sunneva.email);
      // B has seen the session signed in (and keeps that in its memory).
      expect(
        (await call(b.url, 'GET', '/api/auth/me', { token: session.accessToken })).status,
      ).toBe(200);

      const out = await call(a.url, 'POST', '/api/auth/logout', {
        body: { refreshToken: session.refreshToken },
      });
      expect(out.status).toBe(204);
      expect(
        (await call(a.url, 'GET', '/api/auth/me', { token: session.accessToken })).status,
      ).toBe(401);
      await refusedWithin(b, session.accessToken, 'logout on A → refused on B');
      const refresh = await call(b.url, 'POST', '/api/auth/refresh-token', {
        body: { refreshToken: session.refreshToken },
      });
      expect(refresh.status).toBe(401);
    });

    it('ADR 0026/0057: a new password set on A ends the other sessions on B within 1 s; the session that set it stays', async () => {
      const gudrun = demoUser('Guðrun');
      const here = await login(a.url, gudrun.email);
      const elsewhere = await login(b.url, gudrun.email);
      expect(
        (await call(b.url, 'GET', '/api/auth/me', { token: elsewhere.accessToken })).status,
      ).toBe(200);

      const newPassword = 'Nytt-loyniord-2026';
      const changed = await call(a.url, 'POST', '/api/auth/change-password', {
        token: here.accessToken,
        body: { currentPassword: DEMO_PASSWORD, password: newPassword },
      });
      expect(changed.status, JSON.stringify(changed.error)).toBe(200);
      await refusedWithin(b, elsewhere.accessToken, 'new password on A → refused on B');
      const refresh = await call(b.url, 'POST', '/api/auth/refresh-token', {
        body: { refreshToken: elsewhere.refreshToken },
      });
      expect(refresh.status).toBe(401);
      expect((await call(b.url, 'GET', '/api/auth/me', { token: here.accessToken })).status).toBe(
        200,
      );

      // Through the balancer: the old password is refused on both, the new one works.
      const mark = answeredBy.length;
      for (let i = 0; i < 2; i += 1) {
        const old = await call(proxy.url, 'POST', '/api/auth/email-login', {
          body: { email: gudrun.email, password: DEMO_PASSWORD },
        });
        expect(old.status).toBe(401);
      }
      await login(proxy.url, gudrun.email, newPassword);
      expectAlternated(mark, 3);
    });

    it('ADR 0051: a payment webhook handled by A reaches hub clients on B and on A (through the balancer, negotiated on B)', async () => {
      const joannes = demoUser('Jóannes');
      const { accessToken } = await login(proxy.url, joannes.email);
      const placed = await call(proxy.url, 'POST', '/api/packages', {
        token: accessToken,
        key: randomUUID(),
        body: { packageId: 'data-1', phoneNumber: joannes.phoneNumber, payWith: 'card' },
      });
      expect(placed.status, JSON.stringify(placed.error)).toBe(201);
      const orderId = (placed.data.order as { id: string }).id;

      const connect = async (base: string) => {
        const connection = hubClient(base, accessToken);
        open.push(connection);
        const updates = collectPaymentUpdates(connection);
        await connection.start();
        await connection.invoke('ListenToOrder', orderId);
        return updates;
      };
      // One client on B directly; one through the balancer, its WebSocket on A.
      const onB = await connect(b.url);
      await until('B logged its hub connection', async () =>
        linesOf(b, 'hub connected') === 1 ? true : undefined,
      );
      // The negotiate takes the next turn and the upgrade the one after: make the last turn A's,
      // so the negotiate goes to B and the WebSocket to A.
      if (answeredBy.at(-1) !== A) await call(proxy.url, 'GET', '/healthz');
      expect(answeredBy.at(-1)).toBe(A);
      const negotiate = `${PAYMENT_HUB_PATH}/negotiate`;
      const before = { chosen: await proxy.serverStats(), negotiatesOnB: linesOf(b, negotiate) };
      const viaProxy = await connect(proxy.url);
      // HAProxy chose each instance once (the negotiate and the upgrade); B answered the
      // negotiate and A holds the WebSocket (each instance logs the connections it holds).
      const after = await proxy.serverStats();
      const chosenSince = (server: string) =>
        Number(after[server]?.lbtot) - Number(before.chosen[server]?.lbtot);
      expect([chosenSince(A), chosenSince(B)]).toEqual([1, 1]);
      await until('the negotiate on B and the WebSocket on A in their logs', async () =>
        linesOf(b, negotiate) === before.negotiatesOnB + 1 && linesOf(a, 'hub connected') === 1
          ? true
          : undefined,
      );
      expect(linesOf(b, 'hub connected'), 'no WebSocket of the balanced client on B').toBe(1);

      const webhooksOn = (api: ApiProcess) => linesOf(api, '/api/payments/webhooks/test');
      expect(webhooksOn(a) + webhooksOn(b)).toBe(0);
      expect(await payOnCardPage(placed.data.paymentUrl)).toBe(303);

      for (const [where, updates] of [
        ['B', onB],
        ['A', viaProxy],
      ] as const) {
        const paid = await until(`PaymentUpdated 'paid' on ${where}`, async () =>
          updates.find((u) => u.status === 'paid'),
        );
        expect(paid).toMatchObject({ orderId, order: { isComplete: true } });
      }
      // The provider's webhooks were all handled by A.
      expect(webhooksOn(a)).toBeGreaterThan(0);
      expect(webhooksOn(b)).toBe(0);
    });

    it('ADR 0021: wrong passwords alternated across A and B lock the login after 5, as on one instance', async () => {
      const ása = demoUser('Ása');
      const ip = '203.0.113.21';
      const limit = POLICIES.loginIpAccount.limit;
      const mark = answeredBy.length;
      for (let i = 0; i < limit; i += 1) {
        const res = await call(proxy.url, 'POST', '/api/auth/email-login', {
          ip,
          body: { email: ása.email, password: 'Skeivt-1234' },
        });
        expect(res.error?.code, `wrong password ${i + 1}`).toBe('INVALID_CREDENTIALS');
      }
      // The next, even with the right password, is refused: on whichever instance it lands.
      for (let i = 0; i < 2; i += 1) {
        const res = await call(proxy.url, 'POST', '/api/auth/email-login', {
          ip,
          body: { email: ása.email, password: DEMO_PASSWORD },
        });
        expect(res.status, `attempt ${limit + i + 1}`).toBe(429);
        expect(res.error?.code).toBe('TOO_MANY_ATTEMPTS');
      }
      expectAlternated(mark, limit + 2);
      // From another address the customer still signs in.
      const other = await call(proxy.url, 'POST', '/api/auth/email-login', {
        ip: '198.51.100.21',
        body: { email: ása.email, password: DEMO_PASSWORD },
      });
      expect(other.status).toBe(200);
    });

    it('ADR 0023/0021: PIN tries alternated across A and B kill the code after 5 and lock the number after 10, as on one instance', async () => {
      const number = demoUser('Rói').phoneNumber;
      const ip = '203.0.113.22';
      const sent = await call(proxy.url, 'POST', '/api/auth/request-pin', {
        ip,
        body: { phoneNumber: number },
      });
      expect(sent.status).toBe(200);
      const outbox = await fetch(`${proxy.url}/dev/outbox.json?to=298${number}`);
      const messages = ((await outbox.json()) as { data: { text: string }[] }).data;
      const code = /\b(\d{6})\b/.exec(messages[0]?.text ?? '')?.[1];
      if (!code) throw new Error('no code in the outbox');
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const enter = (pin: string) =>
        call(proxy.url, 'POST', '/api/auth/enter-pin', {
          ip,
          body: { phoneNumber: number, password: pin },
        });

      const mark = answeredBy.length;
      for (let i = 1; i < PIN_MAX_ATTEMPTS; i += 1)
        expect((await enter(wrong)).error?.code, `wrong code ${i}`).toBe('INVALID_PIN');
      expect((await enter(wrong)).error?.code, `wrong code ${PIN_MAX_ATTEMPTS}`).toBe(
        'PIN_EXPIRED',
      );
      // The right code is dead now: its five tries were spent on two instances.
      expect((await enter(code)).error?.code, 'the right code after 5 wrong').toBe('PIN_EXPIRED');
      const limit = POLICIES.pinCheckNumber.limit;
      for (let i = PIN_MAX_ATTEMPTS + 2; i <= limit; i += 1)
        expect((await enter(code)).error?.code, `try ${i}`).toBe('PIN_EXPIRED');
      const locked = await enter(code);
      expect(locked.status, `try ${limit + 1}`).toBe(429);
      expect(locked.error?.code).toBe('TOO_MANY_ATTEMPTS');
      expectAlternated(mark, limit + 1);
    });

    it('ADR 0053: month end run on A and B at once moves every balance once', async () => {
      const monthStart = `date_trunc('month', now() at time zone 'Atlantic/Faroe') at time zone 'Atlantic/Faroe'`;
      const balances = await withClient(url, async (db) => {
        // Every balance is of last month, with something left (a second move would show).
        const { rowCount } = await db.query(
          `update line_balances set period_start = (${monthStart}) - interval '1 month'`,
        );
        return rowCount ?? 0;
      });
      expect(balances).toBeGreaterThan(0);

      // A takes the balances and is held inside its transaction while B runs the same round.
      const pause = await armPausePoint(url, {
        table: 'line_balances',
        event: 'update',
        when: 'new.period_start > old.period_start',
      });
      const at = encodeURIComponent(new Date().toISOString());
      const run = (api: ApiProcess) => call(api.url, 'POST', `/dev/month-end?at=${at}`);
      try {
        const onA = run(a);
        await until('A inside its month-end transaction', async () =>
          (await pause.paused()) ? true : undefined,
        );
        let bAnswered = false;
        const onB = run(b).finally(() => (bAnswered = true));
        // B either passes A's rows by (answers) or waits behind A's locks: then A may go on.
        await until('B to answer or wait for A', async () =>
          bAnswered || (await pause.blockedBehind()) ? true : undefined,
        );
        await pause.release();
        const [resultA, resultB] = await Promise.all([onA, onB]);
        expect([resultA.status, resultB.status]).toEqual([200, 200]);
        const count = (r: Answer) => Number(r.data.moved) + Number(r.data.removed);
        expect(count(resultA) + count(resultB), 'balances moved on A and B together').toBe(
          balances,
        );
        expect(count(resultB), 'B left the balances A holds to A').toBe(0);
      } finally {
        await pause.release();
      }
      const stale = await withClient(url, (db) =>
        db.query(`select 1 from line_balances where period_start < ${monthStart}`),
      );
      expect(stale.rowCount).toBe(0);
    }, 30_000);

    it('ADR 0055: with both provisioning workers running, every step of every order happens once', async () => {
      const due = `select 1 from orders where provisioning_next_at <= now() and not is_complete and not is_cancelled`;
      // The seeded demo orders are carried out by the two workers as they start.
      await until('the demo orders', () =>
        withClient(url, async (db) => ((await db.query(due)).rowCount === 0 ? true : undefined)),
      );

      /** A new customer with a card on file, signed up through the balancer. */
      const customer = async (tag: number) => {
        const ip = `198.51.100.${100 + tag}`;
        const registered = await call(proxy.url, 'POST', '/api/auth/register', {
          ip,
          body: registrationForm({
            email: `two-instances-${tag}@example.fo`,
            phoneNumber: `5900${tag}0`,
          }),
        });
        expect(registered.status, JSON.stringify(registered.error)).toBe(200);
        const token = tokensOf(registered).accessToken;
        const agreement = await call(proxy.url, 'POST', '/api/agreements', {
          token,
          key: randomUUID(),
          body: {},
        });
        expect(agreement.status).toBe(201);
        expect(await payOnCardPage(agreement.data.paymentUrl)).toBe(303);
        await until('the card on file', async () => {
          const res = await call(proxy.url, 'GET', '/api/agreements', { token });
          return res.data.status === 'active' ? true : undefined;
        });
        return token;
      };
      const signUp = async (token: string, msisdn: string) => {
        const reserved = await call(proxy.url, 'POST', '/api/auth/reserved-numbers', {
          token,
          body: { phoneNumber: msisdn },
        });
        expect(reserved.status).toBe(200);
        const placed = await call(proxy.url, 'POST', '/api/subscriptions', {
          token,
          key: randomUUID(),
          body: signupBody({ phoneNumberReservationId: reserved.data.reservationId as string }),
        });
        expect(placed.status, JSON.stringify(placed.error)).toBe(201);
        return (placed.data.order as { id: string }).id;
      };
      const [first, second] = await Promise.all([customer(1), customer(2)]);
      const numbers = ['219731', '219732'];
      const complete = (orderId: string) =>
        withClient(url, async (db) =>
          (await db.query(`select 1 from orders where id = $1 and is_complete`, [orderId]))
            .rowCount === 1
            ? true
            : undefined,
        );

      // The first order's worker is held inside its first network step, its order locked.
      const pause = await armPausePoint(url, {
        table: 'provisioning_steps',
        event: 'insert',
        when: `new.step = 'esim_ready'`,
      });
      let x = '';
      let y = '';
      let carriedWhileHeld = false;
      try {
        x = await signUp(first, numbers[0] as string);
        await until('a worker inside the first order', async () =>
          (await pause.paused()) ? true : undefined,
        );
        // Meanwhile the other process's worker (the held one's rounds wait for it) carries a
        // second order to the end, passing the held one by — or waits behind its locks.
        y = await signUp(second, numbers[1] as string);
        await until('the other worker to carry the second order or wait', async () => {
          if (await complete(y)) return (carriedWhileHeld = true);
          return (await pause.blockedBehind()) ? true : undefined;
        });
      } finally {
        await pause.release();
      }
      await until('both orders', async () =>
        (await complete(x)) && (await complete(y)) ? true : undefined,
      );

      const steps = await withClient(
        url,
        async (db) =>
          (
            await db.query<{ order_id: string; steps: string[] }>(
              `select order_id, array_agg(step order by at, id) as steps from provisioning_steps
             where order_id = any($1) group by order_id`,
              [[x, y]],
            )
          ).rows,
      );
      for (const orderId of [x, y]) {
        expect(steps.find((s) => s.order_id === orderId)?.steps, `steps of ${orderId}`).toEqual([
          'received',
          'esim_ready',
          'active',
        ]);
      }
      expect(carriedWhileHeld, 'the second worker passed the held order by').toBe(true);
      // Nothing else happened twice either (the demo orders, carried by both workers at start).
      const twice = await withClient(url, (db) =>
        db.query(
          `select order_id, step from provisioning_steps group by order_id, step having count(*) > 1`,
        ),
      );
      expect(twice.rows).toEqual([]);
      const lines = await withClient(url, (db) =>
        db.query<{ status: string }>(`select status from phone_lines where msisdn = any($1)`, [
          numbers,
        ]),
      );
      expect(lines.rows.map((l) => l.status)).toEqual(['active', 'active']);
    }, 60_000);
  },
);
