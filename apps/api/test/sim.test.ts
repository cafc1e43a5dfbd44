import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { isValidIccid } from '@alda/contract/rules/iccid';
import { orderPlacedResponse } from '@alda/contract/schemas/orders';
import { simDetails, simSecretsResponse } from '@alda/contract/schemas/provisioning';
import { subscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { eq } from 'drizzle-orm';
import { orders } from '../src/db/schema/orders';
import { phoneLines } from '../src/db/schema/phone-lines';
import { DEMO_PASSWORD } from '../src/seed/demo-users';
import { createDemoApp, LINES, type DemoName } from './demo-accounts';

const simAnswer = dataEnvelope(simDetails);
const secretsAnswer = dataEnvelope(simSecretsResponse);

describe('SIM of a number (SPEC §1 "manage eSIM or physical SIM details and phone-book visibility")', () => {
  let t: Awaited<ReturnType<typeof createDemoApp>>;
  beforeAll(async () => {
    t = await createDemoApp({ ESIM_SMDP_ADDRESS: 'smdp.alda.fo' });
  });
  afterAll(() => t.close());

  const call = (
    who: DemoName,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...t.as[who], 'accept-language': 'en', ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const sim = (who: DemoName, lineId: string) =>
    call(who, 'GET', `/api/subscriptions/${lineId}/sim`);
  const secrets = (who: DemoName, lineId: string, password: string) =>
    call(who, 'POST', `/api/subscriptions/${lineId}/sim/secrets`, { password });
  const errorOf = (res: { json: () => unknown }) => errorEnvelope.parse(res.json()).error;

  describe('GET /api/subscriptions/:id/sim', () => {
    it('shows an eSIM with its GSMA SGP.22 activation code, the parts for typing in and the iOS one-tap link', async () => {
      const res = await sim('Jóannes', LINES.joannes);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = simAnswer.parse(res.json());
      expect(data).toMatchObject({
        lineId: LINES.joannes,
        phoneNumber: '214455',
        simType: 'esim',
        iccidMasked: null,
        pendingOrderId: null,
      });
      const esim = data.esim;
      expect(esim).not.toBeNull();
      expect(esim?.smdpAddress).toBe('smdp.alda.fo');
      expect(esim?.activationCode).toBe(`LPA:1$smdp.alda.fo$${esim?.matchingId}`);
      expect(esim?.matchingId).toMatch(/^[A-Z0-9-]{8,}$/);
      expect(esim?.iosInstallUrl).toBe(
        `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(
          esim?.activationCode ?? '',
        )}`,
      );
      expect(new URL(esim?.iosInstallUrl ?? '').searchParams.get('carddata')).toBe(
        esim?.activationCode,
      );
    });

    it('shows a physical SIM with its ICCID masked to the last four digits, never the PIN', async () => {
      const res = await sim('Jóannes', LINES.joannesWork);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = simAnswer.parse(res.json());
      const [line] = await t.app.db
        .select()
        .from(phoneLines)
        .where(eq(phoneLines.id, LINES.joannesWork));
      expect(isValidIccid(line?.iccid ?? '')).toBe(true);
      expect(data.simType).toBe('physical');
      expect(data.esim).toBeNull();
      expect(data.iccidMasked).toBe(`•••• •••• •••• ${line?.iccid?.slice(-4)}`);
      expect(res.body).not.toContain(line?.iccid ?? 'x');
      expect(res.body).not.toContain(line?.simPin ?? 'x');
    });

    it('the owner reads every number of the account; a member only their own (SPEC §6)', async () => {
      expect((await sim('Jóannes', LINES.sunneva)).statusCode).toBe(200);
      expect((await sim('Sunneva', LINES.sunneva)).statusCode).toBe(200);
      const other = await sim('Sunneva', LINES.joannes);
      expect(other.statusCode).toBe(403);
      expect(errorOf(other).code).toBe('OWNER_ONLY');
      for (const res of [
        await sim('Guðrun', LINES.joannes),
        await sim('Sunneva', LINES.joannesWork),
        await sim('Jóannes', '00000000-0000-4000-8000-000000000000'),
        await sim('Jóannes', 'not-a-uuid'),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(errorOf(res).code).toBe('NOT_FOUND');
      }
    });

    it('needs a signed-in user', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/subscriptions/${LINES.joannes}/sim`,
      });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /api/subscriptions/:id/sim/secrets', () => {
    it('shows PIN and PUK of a physical SIM only after the password is given again', async () => {
      const res = await secrets('Jóannes', LINES.sunneva, DEMO_PASSWORD);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = secretsAnswer.parse(res.json());
      expect(data.pin).toMatch(/^\d{4}$/);
      expect(data.puk).toMatch(/^\d{8}$/);
      // Sunneva, the number's own user, gets the same with her own password.
      const own = await secrets('Sunneva', LINES.sunneva, DEMO_PASSWORD);
      expect(secretsAnswer.parse(own.json()).data).toEqual(data);
    });

    it("refuses a wrong password: 422 CURRENT_PASSWORD_INCORRECT in the caller's language", async () => {
      const res = await secrets('Rói', LINES.roi, 'Wrong-password-1');
      expect(res.statusCode).toBe(422);
      expect(errorOf(res)).toMatchObject({
        code: 'CURRENT_PASSWORD_INCORRECT',
        message: 'The current password is incorrect.',
        field: 'password',
      });
      expect(res.body).not.toMatch(/"pin"|"puk"/);
    });

    it('an eSIM has no PIN and PUK to show: 409 SIM_NOT_PHYSICAL', async () => {
      const res = await secrets('Guðrun', LINES.gudrun, DEMO_PASSWORD);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('SIM_NOT_PHYSICAL');
    });

    it('another customer cannot ask, even with their own password (404)', async () => {
      const res = await secrets('Guðrun', LINES.sunneva, DEMO_PASSWORD);
      expect(res.statusCode).toBe(404);
    });

    it('stops guessing after five wrong passwords: 429 TOO_MANY_ATTEMPTS, shared with change password', async () => {
      // A fresh app: the counter is per user and lives in the database.
      const own = await createDemoApp();
      try {
        const ask = (password: string) =>
          own.app.inject({
            method: 'POST',
            url: `/api/subscriptions/${LINES.joannesWork}/sim/secrets`,
            headers: own.as['Jóannes'],
            payload: { password },
          });
        for (let i = 0; i < 5; i++) expect((await ask(`Wrong-${i}-pass`)).statusCode).toBe(422);
        const limited = await ask(DEMO_PASSWORD);
        expect(limited.statusCode).toBe(429);
        expect(errorOf(limited).code).toBe('TOO_MANY_ATTEMPTS');
        // Change password counts on the same limit: the token cannot get five more guesses there.
        const change = await own.app.inject({
          method: 'POST',
          url: '/api/auth/change-password',
          headers: own.as['Jóannes'],
          payload: { currentPassword: DEMO_PASSWORD, password: 'Nytt1234!' },
        });
        expect(change.statusCode).toBe(429);
      } finally {
        await own.close();
      }
    });
  });

  describe('PATCH /api/subscriptions/:id/phone-book', () => {
    it('sets one number in or out of the phone book; GET /api/subscriptions shows it per number', async () => {
      const patch = (who: DemoName, lineId: string, phoneBookVisible: unknown) =>
        call(who, 'PATCH', `/api/subscriptions/${lineId}/phone-book`, { phoneBookVisible });
      const memberOf = async (lineId: string) => {
        const res = await call('Jóannes', 'GET', '/api/subscriptions');
        const data = dataEnvelope(subscriptionsResponse).parse(res.json()).data;
        return [data.currentAccount, ...data.otherAccounts]
          .flatMap((a) => a?.members ?? [])
          .find((m) => m.id === lineId);
      };
      const before = (await memberOf(LINES.joannesWork))?.phoneBookVisible;

      const on = await patch('Jóannes', LINES.joannesWork, !before);
      expect(on.statusCode, on.body).toBe(200);
      expect(simAnswer.parse(on.json()).data.phoneBookVisible).toBe(!before);
      expect((await memberOf(LINES.joannesWork))?.phoneBookVisible).toBe(!before);
      // Only that number: his other number keeps following his profile.
      expect((await memberOf(LINES.joannes))?.phoneBookVisible).toBe(before);
      const again = simAnswer.parse((await sim('Jóannes', LINES.joannesWork)).json()).data;
      expect(again.phoneBookVisible).toBe(!before);

      expect((await patch('Jóannes', LINES.joannesWork, 'yes')).statusCode).toBe(400);
      expect((await patch('Sunneva', LINES.joannes, true)).statusCode).toBe(403);
      expect((await patch('Guðrun', LINES.joannes, true)).statusCode).toBe(404);
    });
  });

  describe('POST /api/subscriptions/:id/sim/replacement', () => {
    const replace = (
      who: DemoName,
      lineId: string,
      body: Record<string, unknown>,
      key: string | null = crypto.randomUUID(),
    ) =>
      call(
        who,
        'POST',
        `/api/subscriptions/${lineId}/sim/replacement`,
        // The step-up of issue 32 (ADR 0076): the caller's password again.
        { password: DEMO_PASSWORD, ...body },
        key === null ? {} : { 'idempotency-key': key },
      );
    const eSim = { eSim: true, simPickupLocationId: null, sendHome: false };

    it('needs exactly one way for the new SIM and an Idempotency-Key', async () => {
      const none = await replace('Jóannes', LINES.joannesWork, {
        eSim: false,
        simPickupLocationId: null,
        sendHome: false,
      });
      expect(none.statusCode).toBe(400);
      const two = await replace('Jóannes', LINES.joannesWork, { ...eSim, sendHome: true });
      expect(two.statusCode).toBe(400);
      const noKey = await replace('Jóannes', LINES.joannesWork, eSim, null);
      expect(noKey.statusCode).toBe(400);
      expect(errorOf(noKey).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    });

    it('refuses a pickup shop that is not on the list: 422 PICKUP_LOCATION_NOT_FOUND', async () => {
      const res = await replace('Jóannes', LINES.sunneva, {
        eSim: false,
        simPickupLocationId: 'no-such-shop',
        sendHome: false,
      });
      expect(res.statusCode).toBe(422);
      expect(errorOf(res).code).toBe('PICKUP_LOCATION_NOT_FOUND');
    });

    it('is refused while the number is still being set up: 409 ORDER_PROCESSING', async () => {
      const res = await replace('Guðrun', LINES.gudrunSecond, eSim);
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('ORDER_PROCESSING');
    });

    it('is for the owner and the number’s own user only', async () => {
      expect((await replace('Guðrun', LINES.joannesWork, eSim)).statusCode).toBe(404);
      expect((await replace('Sunneva', LINES.joannes, eSim)).statusCode).toBe(403);
    });

    it('places a sim_change order (a switch to eSIM) once per key; a second one waits (SPEC §4)', async () => {
      const key = crypto.randomUUID();
      const res = await replace('Jóannes', LINES.joannesWork, eSim, key);
      expect(res.statusCode, res.body).toBe(201);
      const placed = dataEnvelope(orderPlacedResponse).parse(res.json()).data;
      expect(placed.paymentUrl).toBeNull();
      expect(placed.order).toMatchObject({
        kind: 'sim_change',
        phoneNumber: '214466',
        lineId: LINES.joannesWork,
        isComplete: false,
      });
      expect(placed.order.provisioning).toMatchObject({
        delivery: 'esim',
        waitingFor: 'network',
        steps: [{ step: 'received' }],
      });
      // The same request again answers the same order.
      const retry = await replace('Jóannes', LINES.joannesWork, eSim, key);
      expect(retry.statusCode).toBe(201);
      expect(dataEnvelope(orderPlacedResponse).parse(retry.json()).data.order.id).toBe(
        placed.order.id,
      );
      // The same key with another body is refused.
      const reused = await replace(
        'Jóannes',
        LINES.joannesWork,
        { eSim: false, simPickupLocationId: null, sendHome: true },
        key,
      );
      expect(reused.statusCode).toBe(422);
      expect(errorOf(reused).code).toBe('IDEMPOTENCY_KEY_REUSED');
      // The number now has a pending order: a second replacement waits.
      const second = await replace('Jóannes', LINES.joannesWork, {
        eSim: false,
        simPickupLocationId: null,
        sendHome: true,
      });
      expect(second.statusCode).toBe(409);
      expect(errorOf(second).code).toBe('ORDER_PROCESSING');
      const details = simAnswer.parse((await sim('Jóannes', LINES.joannesWork)).json()).data;
      expect(details.pendingOrderId).toBe(placed.order.id);
    });
  });

  describe('a switch to eSIM through provisioning (SPEC §4 "Subscription processing can take days")', () => {
    it('shows the new eSIM to install while the order runs, and the eSIM alone once it is active', async () => {
      const own = await createDemoApp({ PROVISIONING_STEP_S: '0', PROVISIONING_POLL_MS: '0' });
      try {
        const headers = { ...own.as['Jóannes'], 'idempotency-key': crypto.randomUUID() };
        const placed = await own.app.inject({
          method: 'POST',
          url: `/api/subscriptions/${LINES.joannesWork}/sim/replacement`,
          headers,
          payload: {
            eSim: true,
            simPickupLocationId: null,
            sendHome: false,
            password: DEMO_PASSWORD,
          },
        });
        expect(placed.statusCode, placed.body).toBe(201);
        const orderId = dataEnvelope(orderPlacedResponse).parse(placed.json()).data.order.id;
        const read = async () =>
          simAnswer.parse(
            (
              await own.app.inject({
                method: 'GET',
                url: `/api/subscriptions/${LINES.joannesWork}/sim`,
                headers: own.as['Jóannes'],
              })
            ).json(),
          ).data;

        await own.app.provisioning.runDue(1); // received → esim_ready
        const ready = await read();
        expect(ready.simType).toBe('physical'); // the card works until the eSIM is active
        expect(ready.iccidMasked).not.toBeNull();
        expect(ready.pendingOrderId).toBe(orderId);
        expect(ready.esim?.activationCode).toMatch(/^LPA:1\$smdp\.alda\.fo\$.+/);
        expect(ready.esim?.installed).toBe(false);
        const simChangedAt = async () =>
          (
            await own.app.db
              .select({ at: phoneLines.simChangedAt })
              .from(phoneLines)
              .where(eq(phoneLines.id, LINES.joannesWork))
          )[0]?.at;
        // Issue 32 (ADR 0076): not swapped yet while the old card still works.
        expect(await simChangedAt()).toBeNull();

        // The demo's clock stands still: make the next step due now.
        await own.app.db
          .update(orders)
          .set({ provisioningNextAt: new Date(0) })
          .where(eq(orders.id, orderId));
        await own.app.provisioning.runDue(1); // esim_ready → active
        const active = await read();
        expect(active).toMatchObject({ simType: 'esim', iccidMasked: null, pendingOrderId: null });
        expect(active.esim?.matchingId).toBe(ready.esim?.matchingId);
        // Issue 32 (ADR 0076): the SIM swap's date is when the new SIM became active.
        expect(await simChangedAt()).toBeInstanceOf(Date);
        const secretsOfEsim = await own.app.inject({
          method: 'POST',
          url: `/api/subscriptions/${LINES.joannesWork}/sim/secrets`,
          headers: own.as['Jóannes'],
          payload: { password: DEMO_PASSWORD },
        });
        expect(errorOf(secretsOfEsim).code).toBe('SIM_NOT_PHYSICAL');
      } finally {
        await own.close();
      }
    });
  });
});
