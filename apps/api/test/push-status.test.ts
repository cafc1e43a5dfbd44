import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope } from '@alda/contract/envelope';
import { fromFaroeWallClock } from '@alda/contract/format/date';
import { notificationsResponse } from '@alda/contract/schemas/notifications';
import { pushPayload } from '@alda/contract/schemas/push';
import { staffStatusMessage, type StaffStatusMessage } from '@alda/contract/schemas/staff-status';
import { notifications } from '../src/db/schema/data-transfers';
import { operatorActions } from '../src/db/schema/provisioning';
import { runOperator } from '../src/operator';
import { createDemoApp, NOW, type DemoName } from './demo-accounts';
import { parse } from './helper';
import { signInStaff, type TestStaff } from './staff-helper';
import {
  browserSubscription,
  startPushService,
  type BrowserSubscription,
} from './support/web-push-service';
import { makeTestCa, type TestCa } from './support/push-native-servers';

/*
 * Urgent status messages (issue 64, ADR 0096): staff mark a status message urgent, and every
 * customer with a push device is told — pushed through web push to a local HTTPS push service
 * that decrypts what arrives as the browser would — unless they switched status pushes off. A
 * scheduled one is pushed when it starts, also in the customers' quiet hours.
 */

const SUBJECT = 'mailto:drift@alda.fo';

describe('urgent status messages are pushed (issue 64)', () => {
  let tlsFiles: TestCa;
  let service: Awaited<ReturnType<typeof startPushService>>;
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  let clock = NOW;
  const now = () => clock;
  let content: TestStaff;
  /** Guðrun reads Alda in English, Sunneva in Faroese (the demo seed). */
  let guðrun: BrowserSubscription;
  let sunneva: BrowserSubscription;

  beforeAll(async () => {
    tlsFiles = makeTestCa('alda-push-status-');
    service = await startPushService(tlsFiles, { subject: SUBJECT });
    t = await createDemoApp({ PUSH_TLS_CA: tlsFiles.caFile, VAPID_SUBJECT: SUBJECT }, { now });
    content = await signInStaff(t.app, 'content', now);
    guðrun = browserSubscription(service.endpoint('gudrun'));
    sunneva = browserSubscription(service.endpoint('sunneva'));
    for (const [who, subscription] of [
      ['Guðrun', guðrun],
      ['Sunneva', sunneva],
    ] as const) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/push/device',
        headers: t.as[who],
        payload: { platform: 'web', endpoint: subscription.endpoint, keys: subscription.keys },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
    await service?.stop();
    tlsFiles?.remove();
  });

  const switchStatusPush = async (who: DemoName, on: boolean) => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/notification-settings',
      headers: t.as[who],
      payload: { channels: [{ kind: 'status', channel: 'push', on }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  const publish = async (payload: Record<string, unknown>): Promise<StaffStatusMessage> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/staff/status-messages',
      headers: content.headers,
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return parse(dataEnvelope(staffStatusMessage), res).data;
  };

  /** What arrived since `from`, per subscription id, decrypted and checked against the contract. */
  const arrived = (from: number) =>
    service.received.slice(from).map((r) => {
      const subscription = r.id === 'gudrun' ? guðrun : sunneva;
      return {
        id: r.id,
        urgency: r.headers.urgency,
        payload: pushPayload.parse(JSON.parse(subscription.decrypt(r.body))),
      };
    });

  /** The customer's notifications as the app lists them, in their language. */
  const listed = async (who: DemoName, lang: 'fo' | 'en') => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { ...t.as[who], 'accept-language': lang },
    });
    return parse(dataEnvelope(notificationsResponse), res).data.items;
  };

  const OUTAGE = {
    titleFo: 'Feilur á netinum',
    titleEn: 'Network fault',
    bodyFo: 'Mobilnetið í Suðuroy er niðri. Vit arbeiða við tí.',
    bodyEn: 'The mobile network on Suðuroy is down. We are working on it.',
  };

  it('pushes an urgent message at once to every customer with a device, in their language, with high urgency — not to one who switched status pushes off', async () => {
    clock = NOW;
    await switchStatusPush('Sunneva', false);
    const from = service.received.length;
    const message = await publish({ ...OUTAGE, urgent: true, reason: 'INC-311' });
    expect(message).toMatchObject({ urgent: true, state: 'active' });

    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 1 });
    const pushes = arrived(from);
    expect(pushes).toEqual([
      {
        id: 'gudrun',
        urgency: 'high',
        payload: expect.objectContaining({
          kind: 'status',
          title: 'Network fault',
          body: 'The mobile network on Suðuroy is down. We are working on it.',
          link: '/',
        }),
      },
    ]);
    expect(service.refused).toEqual([]);

    // Both device holders find it in the app, Sunneva too: she switched off the push, not the
    // message. A customer without a device is not written to.
    expect((await listed('Guðrun', 'en'))[0]).toMatchObject({
      id: pushes[0]?.payload.id,
      type: 'system',
      title: 'Network fault',
      body: 'The mobile network on Suðuroy is down. We are working on it.',
      link: '/',
    });
    expect((await listed('Sunneva', 'fo'))[0]).toMatchObject({
      type: 'system',
      title: 'Feilur á netinum',
      body: 'Mobilnetið í Suðuroy er niðri. Vit arbeiða við tí.',
    });
    expect((await listed('Jóannes', 'fo')).map((n) => n.title)).not.toContain('Feilur á netinum');

    // The audit entry says it was urgent and how many customers it told.
    const [entry] = await t.app.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.target, message.id));
    expect(entry).toMatchObject({ verb: 'status publish', staffUserId: content.id });
    expect(entry?.details).toMatchObject({ urgent: true, notified: 2 });

    // A second round sends nothing again.
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0 });
  });

  it('pushes nothing for a message that is not urgent, and writes no notification', async () => {
    clock = NOW;
    const from = service.received.length;
    const unclear = await t.app.inject({
      method: 'POST',
      url: '/api/staff/status-messages',
      headers: content.headers,
      payload: { ...OUTAGE, urgent: 'yes' },
    });
    expect(unclear.statusCode).toBe(400);
    expect(unclear.json().error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'urgent' });
    const message = await publish({ ...OUTAGE, titleEn: 'Quiet news', titleFo: 'Stilli tíðindi' });
    expect(message.urgent).toBe(false);
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0 });
    expect(service.received.length).toBe(from);
    expect((await listed('Guðrun', 'en')).map((n) => n.title)).not.toContain('Quiet news');
  });

  it('pushes a scheduled urgent message when it starts, not before — even in quiet hours', async () => {
    clock = NOW;
    await switchStatusPush('Sunneva', true);
    // 23:30 in Tórshavn: inside both customers' quiet hours (22–08 by default).
    const start = fromFaroeWallClock(2026, 6, 15, 23, 30);
    const from = service.received.length;
    const message = await publish({
      ...OUTAGE,
      titleFo: 'Viðlíkahald á netinum',
      titleEn: 'Network maintenance',
      activeFrom: start.toISOString(),
      urgent: true,
    });
    expect(message).toMatchObject({ urgent: true, state: 'scheduled' });

    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0 });
    clock = new Date(start.getTime() - 60_000);
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0 });
    expect(service.received.length).toBe(from);

    clock = start;
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 2 });
    const pushes = arrived(from).sort((a, b) => a.id.localeCompare(b.id));
    expect(pushes).toEqual([
      {
        id: 'gudrun',
        urgency: 'high',
        payload: expect.objectContaining({ kind: 'status', title: 'Network maintenance' }),
      },
      {
        id: 'sunneva',
        urgency: 'high',
        payload: expect.objectContaining({
          kind: 'status',
          title: 'Viðlíkahald á netinum',
          body: 'Mobilnetið í Suðuroy er niðri. Vit arbeiða við tí.',
        }),
      },
    ]);
    // Back to the time the test's sessions were signed in at.
    clock = NOW;
    // In the app's list from when it was published, telling what is planned.
    // (Earlier messages of this file were published at the same instant: found by its title.)
    expect(
      (await listed('Sunneva', 'fo')).find((n) => n.title === 'Viðlíkahald á netinum'),
    ).toMatchObject({ createdAt: NOW.toISOString() });
  });

  it('ending a scheduled urgent message before it starts withdraws its pushes', async () => {
    clock = NOW;
    const start = new Date(NOW.getTime() + 3_600_000);
    const from = service.received.length;
    const message = await publish({
      ...OUTAGE,
      titleFo: 'Viðlíkahald, sum varð avlýst',
      titleEn: 'Maintenance that was called off',
      activeFrom: start.toISOString(),
      urgent: true,
    });
    const ended = await t.app.inject({
      method: 'POST',
      url: `/api/staff/status-messages/${message.id}/end`,
      headers: content.headers,
      payload: { reason: 'Called off' },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    clock = start;
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 0 });
    expect(service.received.length).toBe(from);
    clock = NOW;
  });

  it('the operator command’s --urgent follows the same rule: told and pushed at once', async () => {
    clock = NOW;
    const from = service.received.length;
    let out = '';
    const code = await runOperator(
      [
        'status',
        'publish',
        ...['--title-fo', 'Straumslit', '--title-en', 'Power cut'],
        ...['--body-fo', 'Netið er niðri.', '--body-en', 'The network is down.'],
        '--urgent',
        ...['--as', 'sigrid'],
      ],
      {
        env: {},
        config: t.config,
        database: t.app.database,
        now,
        out: (text) => {
          out += text;
        },
        err: (text) => {
          out += text;
        },
      },
    );
    expect(code, out).toBe(0);
    expect(out).toMatch(/Urgent: notified 2 customers with a push device/);
    expect(await t.app.pushJob.runRound()).toMatchObject({ sent: 2 });
    expect(
      arrived(from)
        .map((p) => p.payload.title)
        .sort(),
    ).toEqual(['Power cut', 'Straumslit']);
    const written = await t.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(
        and(
          eq(notifications.type, 'system'),
          sql`${notifications.params} -> 'title' ->> 'en' = 'Power cut'`,
        ),
      );
    expect(written[0]?.n).toBe(2);
  });
});
