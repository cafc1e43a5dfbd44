import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import {
  lineProtection,
  portOutCodeResponse,
  portOutInboundResponse,
} from '@alda/contract/schemas/number-protection';
import { actions } from '../src/db/schema/actions';
import { notifications } from '../src/db/schema/data-transfers';
import { portOutCodes, portOutRequests } from '../src/db/schema/number-protection';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import type { EmailMessage } from '../src/adapters/email/email-sender';
import type { SmsMessage } from '../src/adapters/sms/sms-sender';
import { loadConfig } from '../src/config';
import { simChangeEmailText, simChangeSmsText } from '../src/modules/sim/texts';
import { DEMO_PASSWORD, DEMO_USERS } from '../src/seed/demo-users';
import { createDemoApp, LINES, NOW, signIn, type DemoName } from './demo-accounts';

const HOUR = 3_600_000;
const protectionAnswer = dataEnvelope(lineProtection);
const errorOf = (res: { json: () => unknown }) => errorEnvelope.parse(res.json()).error;
const userId = (name: DemoName) => DEMO_USERS.find((u) => u.firstname === name)?.id ?? '';

describe('number protection (issue 32, ADR 0076)', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  let clock = NOW;
  const mails: EmailMessage[] = [];
  const texts: SmsMessage[] = [];
  const as: Partial<Record<DemoName, { authorization: string }>> = {};

  beforeAll(async () => {
    t = await createDemoApp(
      {
        DEMO_MODE: 'true',
        NUMBER_UNLOCK_DELAY_H: '24',
        NUMBER_UNLOCK_INTERVAL_S: '0',
        PROVISIONING_STEP_S: '60',
        APP_URL: 'https://app.alda.test',
      },
      {
        now: () => clock,
        messaging: {
          email: {
            kind: 'outbox',
            send: async (m) => void mails.push(m),
            close: async () => {},
          },
          sms: { kind: 'outbox', send: async (m) => void texts.push(m) },
        },
      },
    );
  });
  afterAll(() => t.close());

  /** Moves the clock; the access tokens of before are signed in again. */
  async function advance(ms: number) {
    clock = new Date(clock.getTime() + ms);
    for (const name of Object.keys(as) as DemoName[]) delete as[name];
  }
  async function headers(who: DemoName) {
    as[who] ??= await signIn(t.app, who);
    return { ...as[who], 'accept-language': 'en' };
  }
  const call = async (
    who: DemoName,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    extra: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...(await headers(who)), ...extra },
      ...(payload === undefined ? {} : { payload }),
    });
  const protection = async (who: DemoName, lineId: string) => {
    const res = await call(who, 'GET', `/api/subscriptions/${lineId}/protection`);
    expect(res.statusCode, res.body).toBe(200);
    return protectionAnswer.parse(res.json()).data;
  };
  const msisdnOf = async (lineId: string) => {
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, lineId));
    return line?.msisdn ?? '';
  };
  const portOut = (phoneNumber: string, code: string, provider = 'Hey') =>
    t.app.inject({
      method: 'POST',
      url: '/dev/port-out',
      payload: { phoneNumber, code, provider },
    });
  const makeCode = async (who: DemoName, lineId: string) => {
    const res = await call(who, 'POST', `/api/subscriptions/${lineId}/port-out-code`);
    expect(res.statusCode, res.body).toBe(201);
    return dataEnvelope(portOutCodeResponse).parse(res.json()).data;
  };
  const actionsOf = (lineId: string, type: string) =>
    t.app.db
      .select()
      .from(actions)
      .where(and(eq(actions.lineId, lineId), eq(actions.type, type as 'number_locked')));
  const replaceSim = (who: DemoName, lineId: string, extra: Record<string, unknown>) =>
    call(
      who,
      'POST',
      `/api/subscriptions/${lineId}/sim/replacement`,
      { eSim: true, simPickupLocationId: null, sendHome: false, ...extra },
      { 'idempotency-key': crypto.randomUUID() },
    );

  it('issue 32: shows both states of the demo (Guðrun locked, Jóannes unlocked); who may see it as for the SIM', async () => {
    expect((await protection('Guðrun', LINES.gudrun)).lock).toEqual({
      state: 'locked',
      unlockAt: null,
      requestedAt: null,
    });
    expect((await protection('Jóannes', LINES.joannes)).lock.state).toBe('unlocked');
    // The owner sees a member's number; the member their own.
    expect((await protection('Jóannes', LINES.sunneva)).lock.state).toBe('unlocked');
    expect((await protection('Sunneva', LINES.sunneva)).lock.state).toBe('unlocked');
    const roi = await protection('Rói', LINES.roi);
    expect(roi.simChangedAt).toBe(new Date(NOW.getTime() - 4 * 24 * HOUR).toISOString());
    // Another member of the same account: OWNER_ONLY; anyone else: NOT_FOUND.
    for (const [path, method] of [
      ['protection', 'GET'],
      ['protection/lock', 'POST'],
      ['protection/unlock', 'DELETE'],
      ['port-out-code', 'POST'],
    ] as const) {
      const member = await call('Sunneva', method, `/api/subscriptions/${LINES.joannes}/${path}`);
      expect(member.statusCode, `${method} ${path}`).toBe(403);
      expect(errorOf(member).code).toBe('OWNER_ONLY');
      const stranger = await call('Guðrun', method, `/api/subscriptions/${LINES.joannes}/${path}`);
      expect(stranger.statusCode).toBe(404);
    }
    const unlockByMember = await call(
      'Sunneva',
      'POST',
      `/api/subscriptions/${LINES.joannes}/protection/unlock`,
      { password: DEMO_PASSWORD },
    );
    expect(errorOf(unlockByMember).code).toBe('OWNER_ONLY');
  });

  it('issue 32: a port-out of a locked number is refused (NUMBER_LOCKED) and recorded, though a code can be made', async () => {
    const msisdn = await msisdnOf(LINES.gudrun);
    const code = await makeCode('Guðrun', LINES.gudrun);
    expect(code.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{3}-[0-9A-Z]{3}$/);
    const res = await portOut(msisdn, code.code);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('NUMBER_LOCKED');
    const requests = await t.app.db
      .select()
      .from(portOutRequests)
      .where(eq(portOutRequests.msisdn, msisdn));
    expect(requests).toMatchObject([
      { outcome: 'refused', reason: 'NUMBER_LOCKED', provider: 'Hey' },
    ]);
    const refused = await actionsOf(LINES.gudrun, 'port_out_refused');
    expect(refused).toMatchObject([
      { userId: userId('Guðrun'), payload: { reason: 'NUMBER_LOCKED', provider: 'Hey' } },
    ]);
    expect(await actionsOf(LINES.gudrun, 'port_out_code_created')).toHaveLength(1);
    // The activity log says it in words, in the reader's language.
    for (const [lang, sentence] of [
      ['fo', 'Umbøn frá Hey um at flyta nummarið er avvíst: nummarið er læst'],
      ['en', 'Request from Hey to move the number refused: the number is locked'],
    ] as const) {
      const log = await call('Guðrun', 'GET', '/api/actions', undefined, {
        'accept-language': lang,
      });
      expect((log.json() as { data: { text: string }[] }).data.map((a) => a.text)).toContain(
        sentence,
      );
    }
    const told = await t.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId('Guðrun')), eq(notifications.type, 'port_out')));
    expect(told).toMatchObject([{ params: { outcome: 'refused' } }]);
    expect(
      await t.app.db.select().from(orders).where(eq(orders.lineId, LINES.gudrun)),
    ).not.toContainEqual(expect.objectContaining({ lifecycleAction: 'port_out' }));
    // The code is still good: the lock refused the port, not the code.
    expect((await protection('Guðrun', LINES.gudrun)).portOutCode).not.toBeNull();
    // Only a wrong code counts against the number's limit (five): a lock's refusals never reach 429.
    const more: number[] = [];
    for (let i = 0; i < 5; i++) more.push((await portOut(msisdn, code.code)).statusCode);
    expect(more).toEqual([409, 409, 409, 409, 409]);
  });

  it('issue 32: a SIM change needs the password again and is refused while the number is locked', async () => {
    const missing = await replaceSim('Jóannes', LINES.joannesWork, {});
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing)).toMatchObject({ code: 'VALIDATION_FAILED', field: 'password' });
    const wrong = await replaceSim('Jóannes', LINES.joannesWork, { password: 'Wrong-123' });
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).code).toBe('PASSWORD_INCORRECT');
    const locked = await replaceSim('Guðrun', LINES.gudrun, { password: DEMO_PASSWORD });
    expect(locked.statusCode).toBe(409);
    expect(errorOf(locked).code).toBe('NUMBER_LOCKED');
    expect(texts).toHaveLength(0);
  });

  it('issue 32: an accepted SIM change texts the number itself, e-mails its user and notifies sim_changed', async () => {
    const res = await replaceSim('Jóannes', LINES.sunneva, { password: DEMO_PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.background.idle();
    const msisdn = await msisdnOf(LINES.sunneva);
    expect(texts).toEqual([expect.objectContaining({ to: msisdn })]);
    expect(texts[0]?.text).toMatch(/^Alda: /);
    // No SUPPORT_PHONE in this app: the alert names no number, it sends to customer service.
    expect(texts[0]?.text).toMatch(/customer service|kundatænastuna/);
    const sunneva = DEMO_USERS.find((u) => u.firstname === 'Sunneva');
    expect(mails.map((m) => m.to)).toContain(sunneva?.email);
    const told = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, 'sim_changed'));
    expect(told.map((n) => n.userId).sort()).toEqual([userId('Jóannes'), userId('Sunneva')].sort());
  });

  it('issue 32: an unlock needs the step-up and opens only after NUMBER_UNLOCK_DELAY_H, not before', async () => {
    const url = `/api/subscriptions/${LINES.gudrun}/protection/unlock`;
    const missing = await call('Guðrun', 'POST', url, {});
    expect(missing.statusCode).toBe(400);
    const wrong = await call('Guðrun', 'POST', url, { password: 'Wrong-123' });
    expect(errorOf(wrong).code).toBe('PASSWORD_INCORRECT');
    mails.length = 0;
    const res = await call('Guðrun', 'POST', url, { password: DEMO_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const asked = clock;
    const lock = protectionAnswer.parse(res.json()).data.lock;
    expect(lock).toEqual({
      state: 'unlocking',
      requestedAt: asked.toISOString(),
      unlockAt: new Date(asked.getTime() + 24 * HOUR).toISOString(),
    });
    const scheduled = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, 'number_unlock_scheduled'));
    expect(scheduled).toMatchObject([
      { userId: userId('Guðrun'), link: `/nummarlas/${LINES.gudrun}` },
    ]);
    await t.app.background.idle();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('https://app.alda.test/nummarlas-stedga?token=');

    const msisdn = await msisdnOf(LINES.gudrun);
    const code = await makeCode('Guðrun', LINES.gudrun);
    await advance(24 * HOUR - 1000);
    expect(await t.app.numberProtection.completeDueUnlocks()).toBe(0);
    const early = await portOut(msisdn, code.code);
    expect(errorOf(early).code).toBe('NUMBER_LOCKED');
    expect((await protection('Guðrun', LINES.gudrun)).lock.state).toBe('unlocking');

    await advance(1000);
    // Due: open for every rule at once, whatever the job.
    expect((await protection('Guðrun', LINES.gudrun)).lock.state).toBe('unlocked');
    expect(await t.app.numberProtection.completeDueUnlocks()).toBe(1);
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, LINES.gudrun));
    expect(line).toMatchObject({ numberLocked: false, unlockAt: null, unlockRequestedAt: null });
    expect(await actionsOf(LINES.gudrun, 'number_unlock_requested')).toHaveLength(1);
    expect(await actionsOf(LINES.gudrun, 'number_unlocked')).toHaveLength(1);
  });

  it('issue 32: a waiting unlock is cancelled by the e-mail link (no sign-in) or by a tap; the link works once', async () => {
    const base = `/api/subscriptions/${LINES.gudrun}/protection`;
    expect((await call('Guðrun', 'POST', `${base}/lock`)).statusCode).toBe(200);
    expect((await protection('Guðrun', LINES.gudrun)).lock.state).toBe('locked');
    mails.length = 0;
    await call('Guðrun', 'POST', `${base}/unlock`, { password: DEMO_PASSWORD });
    await t.app.background.idle();
    const token = new URL(/https:\S+/.exec(mails[0]?.text ?? '')?.[0] ?? 'x:').searchParams.get(
      'token',
    );
    expect(token).toBeTruthy();
    const cancel = (body: string) =>
      t.app.inject({ method: 'POST', url: '/api/number-unlocks/cancel', payload: { token: body } });
    const forged = await cancel(`${LINES.gudrun}.${'A'.repeat(43)}`);
    expect(forged.statusCode).toBe(410);
    expect(errorOf(forged).code).toBe('UNLOCK_LINK_INVALID');
    const ok = await cancel(token ?? '');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      data: { phoneNumber: await msisdnOf(LINES.gudrun), state: 'locked' },
    });
    expect((await cancel(token ?? '')).statusCode).toBe(410);

    // By a tap, signed in; nothing waiting: 409.
    await call('Guðrun', 'POST', `${base}/unlock`, { password: DEMO_PASSWORD });
    const tap = await call('Guðrun', 'DELETE', `${base}/unlock`);
    expect(tap.statusCode).toBe(200);
    expect(protectionAnswer.parse(tap.json()).data.lock.state).toBe('locked');
    const again = await call('Guðrun', 'DELETE', `${base}/unlock`);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('NUMBER_UNLOCK_NOT_PENDING');
    expect(await actionsOf(LINES.gudrun, 'number_unlock_cancelled')).toHaveLength(2);
    // An old link of a replaced unlock does not cancel the new one (asked for at another instant).
    await advance(1000);
    await call('Guðrun', 'POST', `${base}/unlock`, { password: DEMO_PASSWORD });
    expect((await cancel(token ?? '')).statusCode).toBe(410);
    expect((await protection('Guðrun', LINES.gudrun)).lock.state).toBe('unlocking');
  });

  it('ADR 0076: wrong, replaced, expired and used codes are refused; a good one ends the line after the provisioning step', async () => {
    const line = LINES.joannesWork;
    const msisdn = await msisdnOf(line);
    const unknown = await portOut('999999', 'ABCD-EFG-HJK');
    expect(errorOf(unknown).code).toBe('PORT_OUT_CODE_INVALID');
    const wrong = await portOut(msisdn, 'ABCD-EFG-HJK');
    expect(wrong.statusCode).toBe(422);
    expect(errorOf(wrong).code).toBe('PORT_OUT_CODE_INVALID');
    // Expired after PORT_OUT_CODE_DAYS.
    const old = await makeCode('Jóannes', line);
    await advance(30 * 24 * HOUR + 1000);
    expect(errorOf(await portOut(msisdn, old.code)).code).toBe('PORT_OUT_CODE_INVALID');
    // A new code replaces the earlier one.
    const first = await makeCode('Jóannes', line);
    const second = await makeCode('Jóannes', line);
    expect(errorOf(await portOut(msisdn, first.code)).code).toBe('PORT_OUT_CODE_INVALID');
    // Typed loosely (lower case, no hyphens) it is the same code.
    const accepted = await portOut(msisdn, second.code.toLowerCase().replace(/-/g, ''), 'Nema');
    expect(accepted.statusCode, accepted.body).toBe(201);
    const done = dataEnvelope(portOutInboundResponse).parse(accepted.json()).data;
    expect(done.portDate).toBe(new Date(clock.getTime() + 60_000).toISOString());
    const used = await portOut(msisdn, second.code);
    expect(errorOf(used).code).toBe('PORT_OUT_CODE_INVALID');
    const codes = await t.app.db.select().from(portOutCodes).where(eq(portOutCodes.lineId, line));
    expect(codes.filter((c) => c.usedAt !== null)).toHaveLength(1);

    const requests = await t.app.db
      .select()
      .from(portOutRequests)
      .where(eq(portOutRequests.lineId, line));
    expect(requests.map((r) => r.outcome).sort()).toEqual([
      'accepted',
      'refused',
      'refused',
      'refused',
      'refused',
    ]);
    expect(await actionsOf(line, 'port_out_refused')).toHaveLength(4);
    expect(await actionsOf(line, 'port_out_accepted')).toMatchObject([
      { payload: { provider: 'Nema' } },
    ]);
    // One notification of the accepted port (with the time it moves), not the order's as well.
    const told = await t.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId('Jóannes')), eq(notifications.createdAt, clock)));
    expect(told.filter((n) => n.params.outcome !== 'refused')).toEqual([
      expect.objectContaining({
        type: 'port_out',
        params: { phoneNumber: msisdn, outcome: 'accepted', at: done.portDate },
        link: `/menu/bilegingar/${done.orderId}`,
      }),
    ]);

    // Still in service until the provisioning worker performs the order's step.
    expect((await protection('Jóannes', line)).lock.state).toBe('unlocked');
    await t.app.provisioning.runDue(5);
    let [row] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, line));
    expect(row?.status).not.toBe('cancelled');
    await advance(60_000);
    await t.app.provisioning.runDue(5);
    [row] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, line));
    expect(row?.status).toBe('cancelled');
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, done.orderId));
    expect(order).toMatchObject({ lifecycleAction: 'port_out', isComplete: true });
  });

  it('ADR 0076: wrong codes for one number stop at five in 15 minutes (429), and that refusal is recorded too', async () => {
    const msisdn = await msisdnOf(LINES.roi);
    const before = (await actionsOf(LINES.roi, 'port_out_refused')).length;
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await portOut(msisdn, 'ZZZZ-ZZZ-ZZZ')).statusCode);
    expect(answers).toEqual([422, 422, 422, 422, 422, 429]);
    const refused = await actionsOf(LINES.roi, 'port_out_refused');
    expect(refused.length - before).toBe(6);
    expect(refused.at(-1)?.payload).toMatchObject({ reason: 'TOO_MANY_ATTEMPTS' });
  });

  it("issue 32: a member's unlock is told to the member and the account owner alike, in-app and by e-mail", async () => {
    const base = `/api/subscriptions/${LINES.sunneva}/protection`;
    expect((await call('Jóannes', 'POST', `${base}/lock`)).statusCode).toBe(200);
    mails.length = 0;
    const res = await call('Sunneva', 'POST', `${base}/unlock`, { password: DEMO_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const scheduled = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.type, 'number_unlock_scheduled'));
    const both = [userId('Jóannes'), userId('Sunneva')].sort();
    expect(
      scheduled
        .filter((n) => n.link === `/nummarlas/${LINES.sunneva}`)
        .map((n) => n.userId)
        .sort(),
    ).toEqual(both);
    await t.app.background.idle();
    const emailOf = (name: string) => DEMO_USERS.find((u) => u.firstname === name)?.email;
    expect(mails.map((m) => m.to).sort()).toEqual([emailOf('Jóannes'), emailOf('Sunneva')].sort());
    for (const mail of mails) expect(mail.text).toContain('/nummarlas-stedga?token=');
  });

  it('issue 41: in demo mode POST /dev/number-unlocks ends a waiting cooling-off a given number of seconds from now; the screen reads the new time, the lock opens then; none waiting is 409', async () => {
    const base = `/api/subscriptions/${LINES.roi}/protection`;
    expect((await call('Rói', 'POST', `${base}/lock`)).statusCode).toBe(200);
    const msisdn = await msisdnOf(LINES.roi);
    const end = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/dev/number-unlocks', payload });
    const none = await end({ phoneNumber: msisdn, inSeconds: 5 });
    expect(none.statusCode).toBe(409);
    expect(errorOf(none).code).toBe('NUMBER_UNLOCK_NOT_PENDING');

    const asked = await call('Rói', 'POST', `${base}/unlock`, { password: DEMO_PASSWORD });
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await end({ phoneNumber: msisdn, inSeconds: -1 })).statusCode).toBe(400);
    const moved = await end({ phoneNumber: msisdn, inSeconds: 5 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await protection('Rói', LINES.roi)).lock).toMatchObject({
      state: 'unlocking',
      unlockAt: new Date(clock.getTime() + 5000).toISOString(),
    });
    await advance(4000);
    await t.app.numberProtection.completeDueUnlocks();
    expect((await protection('Rói', LINES.roi)).lock.state).toBe('unlocking');
    await advance(1000);
    await t.app.numberProtection.completeDueUnlocks();
    const [line] = await t.app.db.select().from(phoneLines).where(eq(phoneLines.id, LINES.roi));
    expect(line).toMatchObject({ numberLocked: false, unlockAt: null });
  });
});

describe('SIM change alerts and SUPPORT_PHONE (issue 32, ADR 0076)', () => {
  it('name the customer service number when SUPPORT_PHONE is set, in both languages', () => {
    const phone = loadConfig({ SUPPORT_PHONE: ' 212121 ' }).supportPhone;
    expect(phone).toBe('212121');
    expect(simChangeSmsText('en', '557812', phone)).toBe(
      'Alda: a new SIM has been ordered for 55 78 12. Not you? Call Alda at 21 21 21 at once.',
    );
    expect(simChangeSmsText('fo', '557812', phone)).toBe(
      'Alda: nýtt SIM er bílagt til 55 78 12. Var tað ikki tú? Ring til Alda á 21 21 21 beinan vegin.',
    );
    expect(simChangeEmailText('en', '557812', phone).body).toMatch(
      /\n\nNot you\? Call Alda at 21 21 21 at once\.$/,
    );
    expect(simChangeEmailText('fo', '557812', phone).body).toMatch(
      /\n\nVar tað ikki tú\? Ring til Alda á 21 21 21 beinan vegin\.$/,
    );
  });

  it('send the customer to customer service, without a number, when SUPPORT_PHONE is unset', () => {
    const phone = loadConfig({}).supportPhone;
    expect(phone).toBeUndefined();
    expect(simChangeSmsText('en', '557812', phone)).toBe(
      "Alda: a new SIM has been ordered for 55 78 12. Not you? Contact Alda's customer service at once.",
    );
    expect(simChangeSmsText('fo', '557812', phone)).toBe(
      'Alda: nýtt SIM er bílagt til 55 78 12. Var tað ikki tú? Set teg í samband við kundatænastuna hjá Alda beinan vegin.',
    );
    expect(simChangeEmailText('en', '557812', phone).body).toMatch(
      /Not you\? Contact Alda's customer service at once\.$/,
    );
    expect(simChangeEmailText('fo', '557812', phone).body).toMatch(
      /Set teg í samband við kundatænastuna hjá Alda beinan vegin\.$/,
    );
  });
});
