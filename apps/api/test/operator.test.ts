import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { portOutCodeResponse } from '@alda/contract/schemas/number-protection';
import { orderResponse } from '@alda/contract/schemas/orders';
import { statusResponse } from '@alda/contract/schemas/status';
import { openDatabase } from '../src/db/client';
import { portOutRequests } from '../src/db/schema/number-protection';
import { orders } from '../src/db/schema/orders';
import { operatorActions } from '../src/db/schema/provisioning';
import { statusMessages } from '../src/db/schema/status-messages';
import { operatorName } from '../src/modules/operator/service';
import { runOperator } from '../src/operator';
import { demoOrderId } from '../src/seed/demo-accounts';
import { createDemoApp, LINES, NOW } from './demo-accounts';
import { parse, testConfig, usingPostgres } from './helper';
import { operatorCli as cli } from './operator-server-helper';

/*
 * `npm run operator` (docs/operations.md "Operator commands", ADR 0055 "Operators"): the command
 * runs in-process against the demo app's database (the same code path as the program, with the
 * app's database handed in), and once as a real process against a PGlite folder.
 */

/** Guðrun's second number, ordered yesterday: ported on an eSIM, the port date set. */
const GUDRUN_ORDER = demoOrderId(8);
/** Its steps so far (apps/api/src/seed/demo-provisioning.ts). */
const PORT_STEPS = ['received', 'esim_ready', 'port_requested', 'port_date_set'];
/** Bárður's number on the Joensen family plan: the SIM card was sent home. */
const BARDUR_ORDER = demoOrderId(5);

type DemoApp = Awaited<ReturnType<typeof createDemoApp>>;

let t: DemoApp;

beforeAll(async () => {
  // The worker stays off: the operator moves the orders here, on the demo's fixed clock.
  t = await createDemoApp({ PROVISIONING_POLL_MS: '0' });
});
afterAll(async () => {
  await t?.close();
});

/** Runs one operator command in-process; answers exit code, stdout and stderr. */
async function operator(argv: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await runOperator(argv, {
    env,
    config: t.config,
    database: t.app.database,
    now: () => NOW,
    osUser: () => 'os-user',
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

/** GET /api/orders/:id as the customer who placed it (Bárður's order is Jóannes's). */
async function customerOrder(id: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/orders/${id}`,
    headers: { ...(id === BARDUR_ORDER ? t.as.Jóannes : t.as.Guðrun), 'accept-language': 'en' },
  });
  expect(res.statusCode).toBe(200);
  return parse(dataEnvelope(orderResponse), res).data;
}

async function actionsFor(target: string) {
  return t.app.db.select().from(operatorActions).where(eq(operatorActions.target, target));
}

async function activeMessages() {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/status',
    headers: { 'accept-language': 'en' },
    payload: {
      currentVersion: '3.0.0',
      deviceMeta: { platform: 'ios', osVersion: '18', model: 'iPhone', isVirtual: false },
    },
  });
  expect(res.statusCode).toBe(200);
  return parse(dataEnvelope(statusResponse), res).data.messages;
}

describe('operator command: usage', () => {
  it('prints the verbs for --help and no arguments (exit 0)', async () => {
    for (const argv of [['--help'], []]) {
      const { code, out } = await operator(argv);
      expect(code).toBe(0);
      for (const verb of [
        'orders',
        'order <id>',
        'complete',
        'fail',
        'retry',
        'advance',
        'status publish',
        'status list',
        'status end',
        'actions',
      ])
        expect(out).toContain(verb);
    }
  });

  it.each([
    [['frobnicate'], /Unknown verb "frobnicate"/],
    [['order'], /order needs the id/],
    [['orders', '--state', 'sleeping'], /--state must be one of processing/],
    [['orders', '--limit', 'ten'], /--limit must be a whole number/],
    [['orders', '--reason', 'x'], /orders does not take --reason/],
    [['status'], /status needs one of: publish, list, end/],
    [['status', 'publish', '--from', 'tomorrow'], /--from must be an ISO 8601 time/],
    [['status', 'end', GUDRUN_ORDER, '--urgent'], /status end does not take --urgent/],
    [['fail', GUDRUN_ORDER, '--bogus'], /Unknown option '--bogus'/],
  ])('exits 2 on a usage error: %j', async (argv, message) => {
    const { code, err, out } = await operator(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toContain('--help');
    expect(out).toBe('');
  });

  it('names the operator by --as, else $OPERATOR, else the OS user', () => {
    expect(operatorName('anna', { OPERATOR: 'bjarni' }, () => 'os')).toBe('anna');
    expect(operatorName(undefined, { OPERATOR: 'bjarni' }, () => 'os')).toBe('bjarni');
    expect(operatorName(undefined, {}, () => 'os')).toBe('os');
    expect(() =>
      operatorName(undefined, {}, () => {
        throw new Error('no passwd entry');
      }),
    ).toThrow(/--as/);
  });
});

describe('operator command: orders (SPEC §4 "Subscription processing can take days")', () => {
  it('lists the processing orders with customer, number, kind, current step, waiting for, next due', async () => {
    const { code, out } = await operator(['orders']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^id\s+created\s+customer\s+number\s+kind\s+current step\s+waiting for\s+next due$/,
    );
    const gudrun = lines.find((line) => line.startsWith(GUDRUN_ORDER));
    expect(gudrun).toMatch(/Guðrun .*557813\s+new_subscription\s+port_date_set\s+network\s+2026-/);
    expect(lines.some((line) => line.startsWith(BARDUR_ORDER))).toBe(true);
    // Completed orders are not processing.
    expect(out).not.toContain(demoOrderId(6));
  });

  it('shows one order with all its steps (time, step, actor, reason)', async () => {
    const { code, out } = await operator(['order', GUDRUN_ORDER]);
    expect(code).toBe(0);
    expect(out).toMatch(/customer:\s+Guðrun /);
    expect(out).toMatch(/waiting for:\s+network/);
    expect(out).toMatch(/^time\s+step\s+actor\s+reason$/m);
    expect(out).toMatch(/received\s+customer\s+-/);
  });

  it('refuses an unknown or malformed id with exit 1 and says so', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', demoOrderId(7)]) {
      const { code, err } = await operator(['order', id]);
      expect(code).toBe(1);
      expect(err).toContain(`No order ${id} in provisioning`);
    }
    const fail = await operator(['fail', 'nope', '--reason', 'x']);
    expect(fail.code).toBe(1);
    expect(fail.err).toContain('No order nope');
  });

  it('fail needs --reason (exit 1), changes nothing without it', async () => {
    const { code, err } = await operator(['fail', GUDRUN_ORDER, '--as', 'anna']);
    expect(code).toBe(1);
    expect(err).toMatch(/fail needs --reason .*the customer sees it/);
    const blank = await operator(['fail', GUDRUN_ORDER, '--reason', '   ', '--as', 'anna']);
    expect(blank.code).toBe(1);
    expect(await actionsFor(GUDRUN_ORDER)).toEqual([]);
    expect((await customerOrder(GUDRUN_ORDER)).provisioning?.steps.map((s) => s.step)).toEqual(
      PORT_STEPS,
    );
  });

  it('fail with a reason stops the order; the customer sees the reason; recorded with who and when', async () => {
    const reason = 'The eSIM could not be prepared; please call us on 700 700.';
    const { code, out } = await operator([
      'fail',
      GUDRUN_ORDER,
      '--reason',
      reason,
      '--as',
      'anna',
    ]);
    expect(code).toBe(0);
    expect(out).toContain(`Failed order ${GUDRUN_ORDER}`);
    expect(out).toMatch(/failed\s+operator:anna\s+The eSIM could not be prepared/);

    const order = await customerOrder(GUDRUN_ORDER);
    expect(order.isComplete).toBe(false);
    expect(order.provisioning?.steps.at(-1)).toMatchObject({ step: 'failed', reason });
    expect(order.provisioning?.waitingFor).toBe('none');

    expect(await actionsFor(GUDRUN_ORDER)).toEqual([
      expect.objectContaining({ operator: 'anna', verb: 'fail', reason, at: NOW }),
    ]);

    const failed = await operator(['orders', '--state', 'failed']);
    expect(failed.out).toContain(GUDRUN_ORDER);
    expect((await operator(['orders'])).out).not.toContain(GUDRUN_ORDER);
  });

  it('refuses what does not fit the state (exit 1): advance or fail a failed order', async () => {
    const advance = await operator(['advance', GUDRUN_ORDER, '--as', 'anna']);
    expect(advance.code).toBe(1);
    expect(advance.err).toMatch(/cannot be advanced: it has failed \(retry it first\)/);
    const again = await operator(['fail', GUDRUN_ORDER, '--reason', 'twice', '--as', 'anna']);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/cannot be failed: it has already failed/);
    expect(await actionsFor(GUDRUN_ORDER)).toHaveLength(1);
  });

  it('retry makes a failed order due again; the worker then performs its step', async () => {
    const { code, out } = await operator(['retry', GUDRUN_ORDER], { OPERATOR: 'bjarni' });
    expect(code).toBe(0);
    expect(out).toMatch(/is due again at 2026-06-15 12:00:00Z \(waiting for network\)/);
    expect(out).toMatch(/state:\s+processing \(retried after a failure\)/);
    expect(out).toMatch(/upcoming:\s+number_moved → active/);
    const order = await customerOrder(GUDRUN_ORDER);
    expect(order.provisioning?.waitingFor).toBe('network');
    expect(order.provisioning?.expectedAt).toBe(NOW.toISOString());
    expect(await actionsFor(GUDRUN_ORDER)).toContainEqual(
      expect.objectContaining({ operator: 'bjarni', verb: 'retry', reason: null, at: NOW }),
    );
    expect((await operator(['orders', '--state', 'failed'])).out).not.toContain(GUDRUN_ORDER);
    expect((await operator(['orders'])).out).toContain(GUDRUN_ORDER);

    // The provisioning worker's next round performs the step that was due.
    await t.app.provisioning.runDue();
    const after = await customerOrder(GUDRUN_ORDER);
    expect(after.provisioning?.steps.map((s) => s.step)).toEqual([
      ...PORT_STEPS,
      'failed',
      'number_moved',
    ]);
    const retry = await operator(['retry', GUDRUN_ORDER]);
    expect(retry.code).toBe(1);
    expect(retry.err).toMatch(/only a failed order or a rejected port can be retried/);
  });

  it('advance performs the next step now (operator from the OS user)', async () => {
    const { code, out, err } = await operator(['advance', GUDRUN_ORDER]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain(`Advanced order ${GUDRUN_ORDER} to active`);
    const order = await customerOrder(GUDRUN_ORDER);
    expect(order.isComplete).toBe(true);
    expect(order.provisioning?.steps.at(-1)).toMatchObject({ step: 'active', reason: null });
    expect(await actionsFor(GUDRUN_ORDER)).toContainEqual(
      expect.objectContaining({ operator: 'os-user', verb: 'advance', reason: null }),
    );
    const again = await operator(['advance', GUDRUN_ORDER]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/cannot be advanced: it is complete/);
    expect((await operator(['orders', '--state', 'complete'])).out).toContain(GUDRUN_ORDER);
  });

  it('complete needs --reason, then completes the order: the customer sees it complete', async () => {
    const missing = await operator(['complete', BARDUR_ORDER, '--as', 'anna']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/complete needs --reason/);

    const reason = 'Activated by hand after the network outage.';
    const { code, out } = await operator([
      'complete',
      BARDUR_ORDER,
      '--reason',
      reason,
      '--as',
      'anna',
    ]);
    expect(code).toBe(0);
    expect(out).toContain(`Completed order ${BARDUR_ORDER}`);
    const order = await customerOrder(BARDUR_ORDER);
    expect(order.isComplete).toBe(true);
    // The step (and completion) is written at NOW, or a millisecond after the previous step.
    expect(Date.parse(order.completedAt ?? '') - NOW.getTime()).toBeLessThan(1000);
    expect(order.provisioning?.steps.map((s) => s.step)).toEqual([
      'received',
      'sim_sent',
      'active',
    ]);
    expect(order.provisioning?.steps.at(-1)).toMatchObject({ step: 'active', reason });
    expect(order.provisioning?.waitingFor).toBe('none');
    expect(await actionsFor(BARDUR_ORDER)).toEqual([
      expect.objectContaining({ operator: 'anna', verb: 'complete', reason, at: NOW }),
    ]);

    const twice = await operator(['complete', BARDUR_ORDER, '--reason', reason]);
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/cannot be completed: it is complete/);
    expect((await operator(['orders'])).out).toMatch(/^No orders in state processing/);
  });
});

describe('operator command: status messages (SPEC §1, §4 "Status messages")', () => {
  let messageId = '';

  it('status publish needs all four texts (exit 1)', async () => {
    const { code, err } = await operator(['status', 'publish', '--title-fo', 'Viðlíkahald']);
    expect(code).toBe(1);
    expect(err).toMatch(/needs --title-en, --body-fo, --body-en/);
  });

  it('status publish → POST /api/status returns the message', async () => {
    const { code, out } = await operator([
      'status',
      'publish',
      '--title-fo',
      'Viðlíkahald',
      '--title-en',
      'Maintenance',
      '--body-fo',
      'Skipanin er niðri í kvøld.',
      '--body-en',
      'The system is down tonight.',
      '--to',
      '2026-06-16T00:00:00Z',
      '--as',
      'sigrid',
    ]);
    expect(code).toBe(0);
    messageId = /Published status message (\S+)/.exec(out)?.[1] ?? '';
    expect(messageId).not.toBe('');

    expect(await activeMessages()).toContainEqual(
      expect.objectContaining({
        id: messageId,
        title: 'Maintenance',
        body: 'The system is down tonight.',
        activeFrom: NOW.toISOString(),
        activeTo: '2026-06-16T00:00:00.000Z',
      }),
    );
    expect(await actionsFor(messageId)).toEqual([
      expect.objectContaining({ operator: 'sigrid', verb: 'status publish', at: NOW }),
    ]);

    const list = await operator(['status', 'list']);
    expect(list.out).toMatch(
      new RegExp(
        `${messageId}\\s+active\\s+-\\s+2026-06-15 12:00:00Z\\s+2026-06-16 00:00:00Z\\s+Maintenance`,
      ),
    );
  });

  it('status publish --urgent marks it urgent: said in the output, the list and the audit entry', async () => {
    const { code, out } = await operator([
      'status',
      'publish',
      ...['--title-fo', 'Feilur á netinum', '--title-en', 'Network fault'],
      ...['--body-fo', 'Netið er niðri.', '--body-en', 'The network is down.'],
      '--urgent',
      ...['--as', 'sigrid'],
    ]);
    expect(code).toBe(0);
    const id = /Published status message (\S+)/.exec(out)?.[1] ?? '';
    // No demo customer has a push device: it tells no one, and says so.
    expect(out).toContain('Urgent: notified 0 customers with a push device');
    const [entry] = await actionsFor(id);
    expect(entry?.details).toMatchObject({ urgent: true, notified: 0 });
    const list = await operator(['status', 'list']);
    expect(list.out).toMatch(new RegExp(`${id}\\s+active\\s+yes\\s+`));
    await operator(['status', 'end', id, '--as', 'sigrid']);
  });

  it('status end → POST /api/status no longer returns it', async () => {
    const { code, out } = await operator(['status', 'end', messageId, '--as', 'sigrid']);
    expect(code).toBe(0);
    expect(out).toContain(`Ended status message ${messageId}`);
    expect((await activeMessages()).map((m) => m.id)).not.toContain(messageId);
    const [row] = await t.app.db
      .select()
      .from(statusMessages)
      .where(eq(statusMessages.id, messageId));
    expect(row?.activeTo).toEqual(NOW);
    expect(await actionsFor(messageId)).toContainEqual(
      expect.objectContaining({ operator: 'sigrid', verb: 'status end', at: NOW }),
    );

    const again = await operator(['status', 'end', messageId]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/has already ended/);
    const unknown = await operator(['status', 'end', '00000000-0000-4000-8000-00000000abcd']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No status message/);
  });

  it('actions lists every recorded command, newest first', async () => {
    const { code, out } = await operator(['actions', '--limit', '100']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^at\s+operator\s+verb\s+target\s+reason$/);
    expect(out).toMatch(/sigrid\s+status end/);
    expect(out).toMatch(/anna\s+fail\s+\S+\s+The eSIM could not be prepared/);
    expect(out).toMatch(/bjarni\s+retry/);
  });
});

describe('operator command: port-out (issue 32, ADR 0076)', () => {
  /** A port-out code made in the app by the line's customer (shown once). */
  async function codeFor(who: 'Guðrun' | 'Jóannes', lineId: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/subscriptions/${lineId}/port-out-code`,
      headers: t.as[who],
    });
    expect(res.statusCode, res.body).toBe(201);
    return parse(dataEnvelope(portOutCodeResponse), res).data.code;
  }
  const requestsOf = (msisdn: string) =>
    t.app.db.select().from(portOutRequests).where(eq(portOutRequests.msisdn, msisdn));

  it('is refused while the number is locked (exit 1), recorded as a port-out request and in the audit log', async () => {
    // Guðrun's number is locked in the demo.
    const code = await codeFor('Guðrun', LINES.gudrun);
    const { code: exit, out, err } = await operator(['port-out', '557812', code, '--as', 'anna']);
    expect(exit).toBe(1);
    expect(out).toBe('');
    expect(err).toBe('Port-out refused (recorded): NUMBER_LOCKED.\n');
    expect(await requestsOf('557812')).toMatchObject([
      { outcome: 'refused', reason: 'NUMBER_LOCKED', provider: 'operator:anna', orderId: null },
    ]);
    expect(await actionsFor('557812')).toMatchObject([
      {
        operator: 'anna',
        kind: 'change',
        verb: 'port-out',
        targetType: 'number',
        reason: 'NUMBER_LOCKED',
        details: { outcome: 'refused', provider: 'operator:anna', lineId: LINES.gudrun },
        at: NOW,
      },
    ]);
    const [order] = await t.app.db
      .select()
      .from(orders)
      .where(and(eq(orders.lineId, LINES.gudrun), eq(orders.lifecycleAction, 'port_out')));
    expect(order).toBeUndefined();
  });

  it("is accepted with the customer's code on an unlocked number (exit 0): a port_out order, audited with it", async () => {
    // Jóannes's work number is unlocked in the demo.
    const code = await codeFor('Jóannes', LINES.joannesWork);
    const wrong = await operator(['port-out', '214466', 'ZZZZ-ZZZ-ZZZ', '--provider', 'Nema']);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toBe('Port-out refused (recorded): PORT_OUT_CODE_INVALID.\n');
    const { code: exit, out } = await operator(['port-out', '214466', code, '--provider', 'Nema'], {
      OPERATOR: 'bjarni',
    });
    expect(exit).toBe(0);
    const orderId = /order (\S+);/.exec(out)?.[1] ?? '';
    expect(out).toBe(
      `Port-out accepted: order ${orderId}; the number moves at ${new Date(NOW.getTime() + t.config.provisioningStepS * 1000).toISOString()}.\n`,
    );
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ lineId: LINES.joannesWork, lifecycleAction: 'port_out' });
    expect(
      (await requestsOf('214466')).map((r) => [r.outcome, r.reason, r.orderId]).sort(),
    ).toEqual([
      ['accepted', null, orderId],
      ['refused', 'PORT_OUT_CODE_INVALID', null],
    ]);
    const entries = await actionsFor('214466');
    expect(entries.map((e) => [e.operator, e.verb, e.reason]).sort()).toEqual([
      ['bjarni', 'port-out', null],
      ['os-user', 'port-out', 'PORT_OUT_CODE_INVALID'],
    ]);
    expect(entries.find((e) => e.operator === 'bjarni')?.details).toEqual({
      outcome: 'accepted',
      provider: 'Nema',
      lineId: LINES.joannesWork,
      orderId,
      portDate: order?.provisioningNextAt?.toISOString(),
    });
    const listed = await operator(['actions', '--limit', '100']);
    expect(listed.out).toMatch(/bjarni\s+port-out\s+214466/);
  });
});

describe('operator command as a process (npm run operator runs tsx src/operator.ts)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'alda-operator-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('prints its help', async () => {
    const { code, stdout } = await cli(['--help'], {});
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run operator -- <verb>');
  });

  it.runIf(usingPostgres)(
    'runs against DATABASE_URL beside the running app (PostgreSQL)',
    async () => {
      const env = { DATABASE_URL: t.config.databaseUrl ?? '' };
      const listed = await cli(['orders', '--state', 'all'], env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(GUDRUN_ORDER);
      const ended = await cli(['status', 'end', '00000000-0000-4000-8000-00000000abcd'], env);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toContain('No status message');
    },
    60_000,
  );

  it.skipIf(usingPostgres)(
    'refuses a PGlite folder another process has open, then publishes once it is free',
    async () => {
      const env = { DATA_DIR: dir, DATABASE_URL: '' };
      // No database there yet.
      const empty = await cli(['status', 'list'], env);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain(`No database in ${dir}`);

      // This process holds the folder, as a running server would.
      const held = await openDatabase({ dataDir: dir });
      await held.migrate();
      let busyErr = '';
      const busy = await runOperator(['status', 'list'], {
        env: {},
        config: testConfig({ DATA_DIR: dir }),
        out: () => {},
        err: (text) => {
          busyErr += text;
        },
      });
      await held.close();
      expect(busy).toBe(1);
      expect(busyErr).toMatch(
        /open in another process \(is the server running\?\).*stop the server/,
      );

      const published = await cli(
        [
          'status',
          'publish',
          '--title-fo',
          'Royndarboð',
          '--title-en',
          'Test message',
          '--body-fo',
          'Tekstur',
          '--body-en',
          'Text',
          '--as',
          'cli-test',
        ],
        env,
      );
      expect(published.stderr).not.toMatch(/failed|error/i);
      expect(published.code).toBe(0);
      expect(published.stdout).toMatch(/Published status message/);

      const db = await openDatabase({ dataDir: dir });
      try {
        const [row] = await db.db.select().from(statusMessages);
        expect(row?.titleEn).toBe('Test message');
        const [action] = await db.db.select().from(operatorActions);
        expect(action).toMatchObject({
          operator: 'cli-test',
          verb: 'status publish',
          target: row?.id,
        });
      } finally {
        await db.close();
      }
    },
    60_000,
  );
});
