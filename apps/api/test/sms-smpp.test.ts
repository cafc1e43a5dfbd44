import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataEnvelope, errorEnvelope } from '@alda/contract/envelope';
import { staffCustomerView } from '@alda/contract/schemas/staff-customers';
import { outboxMessages, type OutboxMessageRow } from '../src/db/schema/outbox';
import { pinCodeSms } from '../src/modules/auth/messages';
import { simChangeSmsText } from '../src/modules/sim/texts';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, createTestApps, demoUser, parse, type TestApp } from './helper';
import { fakeSmsc, freePort, shortMessageOf, smppEnv, until } from './sms-smpp-helper';
import { signInStaff } from './staff-helper';

/*
 * SMS over SMPP 3.4 (issue 43 item 3, docs/decisions/0084-sms-smpp.md) against a real SMPP peer:
 * the `smpp` library's server mode plays the SMSC on a local port. The tests read the PDUs it
 * receives (bind, submit_sm with data_coding, UDH and TON/NPI, enquire_link, unbind) and drive the
 * app through the product's own flows where there is one (a login code), through the app's SMS
 * adapter otherwise.
 */

const env = smppEnv;

const JOANNES = demoUser('Jóannes');
const SUNNEVA = demoUser('Sunneva');
const GUDRUN = demoUser('Guðrun');
const ROI = demoUser('Rói');

const smsc = fakeSmsc();
let t: TestApp;
let ip = 0;

async function rowOf(id: string): Promise<OutboxMessageRow> {
  const [row] = await t.app.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  if (!row) throw new Error(`no outbox row ${id}`);
  return row;
}

/** The newest SMS row to `msisdn` (6 digits). */
async function lastRowTo(msisdn: string): Promise<OutboxMessageRow> {
  const rows = await t.app.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.recipient, `298${msisdn}`));
  const row = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  if (!row) throw new Error(`no SMS to ${msisdn}`);
  return row;
}

function requestPin(phoneNumber: string, locale: 'fo' | 'en' = 'fo') {
  ip += 1;
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/request-pin',
    remoteAddress: `10.43.0.${ip}`,
    headers: { 'accept-language': locale },
    payload: { phoneNumber },
  });
}

beforeAll(async () => {
  await smsc.start();
  t = await createTestApp(env(smsc.port));
  await seedDemoData(t.app.db, new Date());
  await t.app.ready();
  await until('the bind', () => t.app.sms.kind === 'smpp' && smsc.received.length > 0);
});
afterAll(async () => {
  await t?.close();
  await smsc.stop();
});

describe('SMPP session (issue 43: one bound transceiver, enquire_link keep-alive)', () => {
  it('binds as a transceiver with its system_id and password, on SMPP 3.4', async () => {
    const bind = await until('bind_transceiver', () =>
      smsc.received.find((r) => r.pdu.command === 'bind_transceiver'),
    );
    expect(bind.pdu).toMatchObject({
      system_id: 'alda',
      password: 'secret',
      interface_version: 0x34,
    });
  });

  it('sends enquire_link at the configured interval and gets its answers', async () => {
    const from = smsc.received.length;
    await until('two enquire_links', () =>
      smsc.received.slice(from).filter((r) => r.pdu.command === 'enquire_link').length >= 2
        ? true
        : undefined,
    );
  });
});

describe('texts on the wire (issue 43: Faroese needs UCS-2, GSM-7 stays GSM-7)', () => {
  it('sends a Faroese login code in UCS-2 (data_coding 8), to 298xxxxxx TON 1 NPI 1, from an alphanumeric sender TON 5, with a receipt asked for, before answering', async () => {
    const from = smsc.received.length;
    const res = await requestPin(JOANNES.phoneNumber, 'fo');
    expect(res.statusCode, res.body).toBe(200);
    // The answer came after the SMSC accepted it: the row is sent already.
    const row = await lastRowTo(JOANNES.phoneNumber);
    // Within 70 characters of UCS-2: one SMS, no UDH (sms-texts.test.ts lists every text).
    expect(row).toMatchObject({ state: 'sent', encoding: 'ucs2', parts: 1 });
    expect(row.smscIds).toHaveLength(1);
    const submits = smsc.submits(from);
    expect(submits).toHaveLength(1);
    for (const submit of submits) {
      expect(submit.pdu).toMatchObject({
        data_coding: 8,
        esm_class: 0,
        registered_delivery: 1,
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: `298${JOANNES.phoneNumber}`,
        source_addr_ton: 5,
        source_addr_npi: 0,
        source_addr: 'Alda',
      });
      expect(shortMessageOf(submit.pdu).udh).toBeNull();
    }
    const text = submits.map((s) => shortMessageOf(s.pdu).text).join('');
    const code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    expect(text).toBe(pinCodeSms('fo', code, 10));
    expect(text).toContain('Kotan hjá tær til Alda er');
    // The code that arrived signs the customer in.
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/enter-pin',
      remoteAddress: '10.43.1.1',
      payload: { phoneNumber: JOANNES.phoneNumber, password: code },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('splits a long Faroese text at 67 characters a part, each behind the UDH 05 00 03 ref total seq', async () => {
    const from = smsc.received.length;
    const text =
      `Alda: ${'Hetta er eitt langt boð á føroyskum við ð, á, í, ó, ú og ý. '.repeat(3)}`.trim();
    expect(text.length).toBeGreaterThan(134);
    const parts = Math.ceil(text.length / 67);
    await t.app.sms.send({ to: SUNNEVA.phoneNumber, text });
    const submits = await until('every part', () =>
      smsc.submits(from).length >= parts ? smsc.submits(from) : undefined,
    );
    expect(submits).toHaveLength(parts);
    const decoded = submits.map((s) => ({ pdu: s.pdu, ...shortMessageOf(s.pdu) }));
    const ref = decoded[0]?.udh?.[2];
    decoded.forEach((part, i) => {
      expect(part.pdu).toMatchObject({ data_coding: 8, esm_class: 0x40, registered_delivery: 1 });
      // IEI 00 (concatenation, 8-bit reference), length 03, reference, total, sequence.
      expect(part.udh).toEqual([0x00, 0x03, ref, parts, i + 1]);
      expect(part.text.length).toBeLessThanOrEqual(67);
    });
    expect(decoded.slice(0, -1).every((part) => part.text.length === 67)).toBe(true);
    expect(decoded.map((part) => part.text).join('')).toBe(text);
    const row = await until('the row sent', async () => {
      const r = await lastRowTo(SUNNEVA.phoneNumber);
      return r.state === 'sent' ? r : undefined;
    });
    expect(row).toMatchObject({ encoding: 'ucs2', parts });
    expect(row.smscIds).toHaveLength(parts);
  });

  it('keeps a text in GSM-7 letters (with æ and ø) in GSM-7: data_coding 0, 153 characters a part', async () => {
    const from = smsc.received.length;
    const text = `Alda: ${'Hey Ærna, Øssur og Åse! Her er gott. '.repeat(6)}`.trim();
    expect(text.length).toBeGreaterThan(160);
    await t.app.sms.send({ to: SUNNEVA.phoneNumber, text });
    const submits = await until('both parts', () =>
      smsc.submits(from).length >= 2 ? smsc.submits(from) : undefined,
    );
    expect(submits).toHaveLength(2);
    const decoded = submits.map((s) => ({ pdu: s.pdu, ...shortMessageOf(s.pdu) }));
    expect(decoded.map((p) => p.pdu.data_coding)).toEqual([0, 0]);
    expect(decoded[0]?.text).toHaveLength(153);
    expect(decoded[0]?.udh?.slice(3)).toEqual([2, 1]);
    expect(decoded[1]?.udh?.slice(3)).toEqual([2, 2]);
    expect(decoded.map((p) => p.text).join('')).toBe(text);
  });
});

describe('delivery receipts (issue 43: each message gets a state staff can see)', () => {
  /** Opens Guðrun in the console API and answers her messages. */
  async function staffMessages() {
    const staff = await signInStaff(t.app, 'support');
    const opened = await t.app.inject({
      method: 'POST',
      url: `/api/staff/customers/${GUDRUN.id}/access`,
      headers: staff.headers,
      payload: { reason: 'Issue 43: did the code arrive?' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const res = await t.app.inject({
      url: `/api/staff/customers/${GUDRUN.id}`,
      headers: { ...staff.headers, 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parse(dataEnvelope(staffCustomerView), res).data.messages;
  }

  it('answers every deliver_sm and makes the row delivered once every part is, shown to staff', async () => {
    const from = smsc.received.length;
    const text = `Alda: ${'ð'.repeat(100)}`;
    await t.app.sms.send({ to: GUDRUN.phoneNumber, text });
    await until('two parts', () => smsc.submits(from).length >= 2);
    const row = await until('the row sent', async () => {
      const r = await lastRowTo(GUDRUN.phoneNumber);
      return r.state === 'sent' ? r : undefined;
    });
    const [first, second] = row.smscIds;

    const firstResp = await smsc.deliver({
      source_addr: `298${GUDRUN.phoneNumber}`,
      destination_addr: 'Alda',
      esm_class: 0x04,
      receipted_message_id: first,
      message_state: 2,
      short_message: `id:${first} sub:001 dlvrd:001 submit date:2611260400 done date:2611260401 stat:DELIVRD err:000 text:Alda`,
    });
    expect(firstResp).toMatchObject({ command: 'deliver_sm_resp', command_status: 0 });
    expect((await rowOf(row.id)).state).toBe('sent');

    // The second receipt only as text, as many SMSCs send it.
    const secondResp = await smsc.deliver({
      source_addr: `298${GUDRUN.phoneNumber}`,
      destination_addr: 'Alda',
      esm_class: 0x04,
      short_message: `id:${second} sub:001 dlvrd:001 submit date:2611260400 done date:2611260401 stat:DELIVRD err:000 text:Alda`,
    });
    expect(secondResp.command_status).toBe(0);
    const delivered = await until('delivered', async () => {
      const r = await rowOf(row.id);
      return r.state === 'delivered' ? r : undefined;
    });
    expect(delivered.deliveredIds.toSorted()).toEqual([first, second].toSorted());

    const messages = await staffMessages();
    expect(messages.kept.sms).toBe(true);
    expect(messages.items.find((m) => m.id === row.id)).toMatchObject({
      channel: 'sms',
      to: `298${GUDRUN.phoneNumber}`,
      delivery: { state: 'delivered', error: null },
    });
  });

  it("marks the row failed with the SMSC's stat and err when a receipt says it was not delivered", async () => {
    const res = await requestPin(GUDRUN.phoneNumber, 'en');
    expect(res.statusCode, res.body).toBe(200);
    const row = await lastRowTo(GUDRUN.phoneNumber);
    expect(row).toMatchObject({ state: 'sent', encoding: 'gsm7' });
    const resp = await smsc.deliver({
      source_addr: `298${GUDRUN.phoneNumber}`,
      destination_addr: 'Alda',
      esm_class: 0x04,
      receipted_message_id: row.smscIds[0],
      message_state: 5,
      short_message: `id:${row.smscIds[0]} sub:001 dlvrd:000 submit date:2611260400 done date:2611260401 stat:UNDELIV err:001 text:Your Alda`,
    });
    expect(resp.command_status).toBe(0);
    const failed = await until('failed', async () => {
      const r = await rowOf(row.id);
      return r.state === 'failed' ? r : undefined;
    });
    expect(failed.error).toBe('UNDELIV err:001');
    const messages = await staffMessages();
    expect(messages.items.find((m) => m.id === row.id)).toMatchObject({
      kind: 'one_time_code',
      text: null,
      delivery: { state: 'failed', error: 'UNDELIV err:001' },
    });
  });
});

describe('throttling and outages (issue 43: ESME_RTHROTTLED retried, messages wait while the SMSC is down)', () => {
  it('retries a message the SMSC throttled (ESME_RTHROTTLED), and it then goes out', async () => {
    const from = smsc.received.length;
    const text = 'Alda: throttled once, then sent.';
    let throttled = 0;
    smsc.answer = (pdu) => {
      if (shortMessageOf(pdu).text === text && throttled === 0) {
        throttled += 1;
        return 0x58;
      }
      return 0;
    };
    try {
      await t.app.sms.send({ to: ROI.phoneNumber, text });
      const row = await until('the row sent', async () => {
        const r = await lastRowTo(ROI.phoneNumber);
        return r.state === 'sent' ? r : undefined;
      });
      expect(row.attempts).toBe(2);
      expect(row.error).toBeNull();
      const tries = smsc.submits(from).filter((s) => shortMessageOf(s.pdu).text === text);
      expect(tries).toHaveLength(2);
    } finally {
      smsc.answer = () => 0;
    }
  });

  it('fails a message the SMSC refuses for good (invalid destination), with its error', async () => {
    smsc.answer = (pdu) => (shortMessageOf(pdu).text === 'Alda: nobody' ? 0x0b : 0);
    try {
      await t.app.sms.send({ to: ROI.phoneNumber, text: 'Alda: nobody' });
      const row = await until('the row failed', async () => {
        const r = await lastRowTo(ROI.phoneNumber);
        return r.state === 'failed' ? r : undefined;
      });
      expect(row.error).toBe('ESME_RINVDSTADR (0x0B)');
    } finally {
      smsc.answer = () => 0;
    }
  });

  it('tells the customer SMS_NOT_SENT when a code is not accepted within the wait, and never sends it later', async () => {
    await smsc.stop();
    const res = await requestPin(SUNNEVA.phoneNumber, 'fo');
    expect(res.statusCode).toBe(503);
    expect(parse(errorEnvelope, res).error).toEqual({
      code: 'SMS_NOT_SENT',
      message: "Vit fingu ikki sent SMS'ið. Royn aftur seinni.",
    });
    const code = await lastRowTo(SUNNEVA.phoneNumber);
    expect(code).toMatchObject({ state: 'failed', error: 'not sent within 3 s', smscIds: [] });

    // The SMSC is back: a message queued while it was down goes out, the stale code never does.
    const from = smsc.received.length;
    const alert = simChangeSmsText('fo', ROI.phoneNumber, undefined);
    await t.app.sms.send({ to: ROI.phoneNumber, text: alert });
    expect((await lastRowTo(ROI.phoneNumber)).state).toBe('queued');
    await smsc.start(smsc.port);
    await until('the alert sent', async () => (await lastRowTo(ROI.phoneNumber)).state === 'sent');
    const toRoi = smsc
      .submits(from)
      .filter((s) => s.pdu.destination_addr === `298${ROI.phoneNumber}`);
    expect(toRoi.map((s) => shortMessageOf(s.pdu).text).join('')).toBe(alert);
    expect(
      smsc.submits(from).filter((s) => s.pdu.destination_addr === `298${SUNNEVA.phoneNumber}`),
    ).toEqual([]);
    expect((await rowOf(code.id)).state).toBe('failed');
    // The failed code was withdrawn: the customer can ask again at once.
    expect((await requestPin(SUNNEVA.phoneNumber, 'fo')).statusCode).toBe(200);
  });
});

describe('a second instance: a numeric sender, an SMSC down at first, the rate limit (issue 43)', () => {
  const second = fakeSmsc();
  /** Where the second instance looks for its SMSC, which is not up yet. */
  let port = 0;
  let b: TestApp;
  let closed = false;

  beforeAll(async () => {
    port = await freePort();
    b = await createTestApp(
      env(port, { SMPP_SOURCE_ADDR: '+298100200', SMPP_MAX_PER_SECOND: '5' }),
    );
    await b.app.ready();
  });
  afterAll(async () => {
    if (!closed) await b?.close();
    await second.stop();
  });

  it('keeps a message queued while the SMSC is unreachable, and sends it from the numeric sender (TON 1, NPI 1) once it is up', async () => {
    const text = simChangeSmsText('en', JOANNES.phoneNumber, '112233');
    // A non-code message is queued and the send returns at once, SMSC or not.
    await b.app.sms.send({ to: JOANNES.phoneNumber, text });
    const [queued] = await b.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, `298${JOANNES.phoneNumber}`));
    expect(queued).toMatchObject({ state: 'queued', encoding: 'gsm7', parts: 1 });

    await second.start(port);
    const submit = await until('the queued message', () => second.submits()[0]);
    expect(submit.pdu).toMatchObject({
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: '298100200',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: `298${JOANNES.phoneNumber}`,
      data_coding: 0,
    });
    expect(shortMessageOf(submit.pdu).text).toBe(text);
  });

  it('submits at most SMPP_MAX_PER_SECOND PDUs a second', async () => {
    const from = second.received.length;
    const count = 12;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        b.app.sms.send({ to: SUNNEVA.phoneNumber, text: `Alda: message ${i + 1}` }),
      ),
    );
    const submits = await until('every message', () =>
      second.submits(from).length >= count ? second.submits(from) : undefined,
    );
    const times = submits.map((s) => s.at);
    // 5 a second, evenly spaced: any 6 submits in a row span at least a second (some slack for
    // timers; nothing bounds them from above).
    for (let i = 0; i + 5 < times.length; i += 1) {
      expect(times[i + 5]! - times[i]!, `submits ${i + 1}–${i + 6}`).toBeGreaterThanOrEqual(800);
    }
  });

  it('unbinds when the app closes', async () => {
    const from = second.received.length;
    closed = true;
    await b.close();
    expect(second.received.slice(from).map((r) => r.pdu.command)).toContain('unbind');
  });
});

describe('several instances on one database (issue 43: the outbox table is the queue)', () => {
  it('sends each queued message exactly once, whichever instance claims it (SKIP LOCKED and leases)', async () => {
    const shared = await createTestApps(2, env(smsc.port));
    const from = smsc.received.length;
    const texts = Array.from({ length: 10 }, (_, i) => `Alda: shared queue ${i + 1}`);
    try {
      await Promise.all(shared.apps.map((app) => app.ready()));
      // Queued on both instances at once; every dispatcher is told (NOTIFY) and claims.
      await Promise.all(
        texts.map((text, i) => shared.apps[i % 2]!.sms.send({ to: SUNNEVA.phoneNumber, text })),
      );
      await until('every message', () => smsc.submits(from).length >= texts.length);
    } finally {
      // Closing waits for both dispatchers' rounds: a second send would be in by then.
      await shared.close();
    }
    const sent = smsc.submits(from).map((r) => shortMessageOf(r.pdu).text);
    expect(sent.toSorted()).toEqual(texts.toSorted());
  });
});
