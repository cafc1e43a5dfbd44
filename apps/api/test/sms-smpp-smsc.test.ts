import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueSms } from '../src/adapters/outbox/sms-queue';
import { outboxMessages, type OutboxMessageRow } from '../src/db/schema/outbox';
import { pinCodeSms } from '../src/modules/auth/messages';
import { PIN_TTL_S } from '../src/modules/auth/phone-login-service';
import { seedDemoData } from '../src/seed/seed';
import { createTestApp, demoUser, type TestApp } from './helper';
import { fakeSmsc, smppEnv, until, type Received, type SmscAlphabet } from './sms-smpp-helper';

/*
 * What SMSCs differ on (issue 61 §5, docs/decisions/0084-sms-smpp.md "For the operator"): the
 * alphabet of data_coding 0, the bind's system_type and address_range, a code's validity_period,
 * receipt ids in decimal for hex ids, and SMPP over TLS. Each against the `smpp` library's server
 * as the SMSC (sms-smpp-helper.ts), which decodes what it receives from the octets on the wire.
 */

const JOANNES = demoUser('Jóannes');
const SUNNEVA = demoUser('Sunneva');
const GUDRUN = demoUser('Guðrun');

/** The joined text of the submits to `msisdn`, as the SMSC decoded them. */
function textTo(submits: Received[], msisdn: string): string {
  return submits
    .filter((s) => s.pdu.destination_addr === `298${msisdn}`)
    .map((s) => s.decoded?.text ?? '')
    .join('');
}

async function appWith(port: number, more: Record<string, string>): Promise<TestApp> {
  // A calm keep-alive: on a busy machine a 0.2-s one may drop the link and resend a part.
  const t = await createTestApp(smppEnv(port, { SMPP_ENQUIRE_LINK_S: '5', ...more }));
  await t.app.ready();
  return t;
}

async function lastRowTo(t: TestApp, msisdn: string): Promise<OutboxMessageRow> {
  const rows = await t.app.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.recipient, `298${msisdn}`));
  const row = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  if (!row) throw new Error(`no SMS to ${msisdn}`);
  return row;
}

/** Every GSM 03.38 character class at once: basic (@ £ ü Æ ß), extension ({ € ~ …), newline. */
const GSM_TEXT = 'Alda: @ £ € ü { } [ ] ~ \\ | ^ § ¿ ¡ Ærna, Øssur og Åse! ß É Ñ à ΔΩ\n100%';
/** The same in what GSM 03.38 and Latin-1 share (no €, no Greek capitals). */
const LATIN1_TEXT = 'Alda: @ £ ü { } [ ] ~ \\ | ^ § ¿ ¡ Ærna, Øssur og Åse! ß É Ñ à\n100%';

describe.each<SmscAlphabet>(['gsm7', 'gsm7-packed', 'latin1'])(
  "SMPP_ALPHABET=%s: the SMSC's default alphabet for data_coding 0 (issue 61 §5)",
  (alphabet) => {
    const smsc = fakeSmsc({ alphabet });
    let t: TestApp;
    const plain = alphabet === 'latin1' ? LATIN1_TEXT : GSM_TEXT;

    beforeAll(async () => {
      await smsc.start();
      t = await appWith(smsc.port, { SMPP_ALPHABET: alphabet });
      await until('the bind', () =>
        smsc.received.some((r) => r.pdu.command === 'bind_transceiver'),
      );
    });
    afterAll(async () => {
      await t?.close();
      await smsc.stop();
    });

    it(`sends plain text with data_coding 0 that an SMSC reading it as ${alphabet} decodes as written (issue 61 §5)`, async () => {
      const from = smsc.received.length;
      await t.app.sms.send({ to: SUNNEVA.phoneNumber, text: plain });
      const [submit] = await until('the submit', () =>
        smsc.submits(from).length ? smsc.submits(from) : undefined,
      );
      expect(submit?.pdu).toMatchObject({ data_coding: 0, esm_class: 0 });
      expect(submit?.decoded).toEqual({ text: plain, udh: null });
      // The octets are that alphabet's: packed is 7 octets per 8 septets.
      const septets = [...plain].reduce((n, c) => n + ('{}[]~\\|^€'.includes(c) ? 2 : 1), 0);
      const octets = {
        gsm7: septets,
        'gsm7-packed': Math.ceil((septets * 7) / 8),
        latin1: plain.length,
      }[alphabet];
      expect(submit?.octets).toHaveLength(octets);
    });

    it(`splits a long plain text at 153 characters a part, each behind the UDH, decoded as ${alphabet} (issue 61 §5)`, async () => {
      const from = smsc.received.length;
      const text = `${plain} `.repeat(4).trim();
      expect(text.length).toBeGreaterThan(160);
      await t.app.sms.send({ to: GUDRUN.phoneNumber, text });
      const row = await until('the row sent', async () => {
        const r = await lastRowTo(t, GUDRUN.phoneNumber);
        return r.state === 'sent' ? r : undefined;
      });
      expect(row).toMatchObject({ encoding: 'gsm7' });
      const submits = smsc.submits(from);
      expect(submits).toHaveLength(row.parts ?? 0);
      submits.forEach((s, i) => {
        expect(s.pdu).toMatchObject({ data_coding: 0, esm_class: 0x40 });
        expect(s.decoded?.udh?.slice(3)).toEqual([submits.length, i + 1]);
        // A part fits one SMS on the air: 140 octets once packed.
        if (alphabet === 'gsm7-packed') expect(s.octets?.length).toBeLessThanOrEqual(140);
      });
      expect(textTo(submits, GUDRUN.phoneNumber)).toBe(text);
    });

    it('still sends Faroese (and what the alphabet lacks) in UCS-2, data_coding 8 (issue 61 §5)', async () => {
      const from = smsc.received.length;
      const texts = ['Kotan hjá tær til Alda er 123456.'];
      if (alphabet === 'latin1') texts.push('Alda: 5 € til tín', 'Alda: Δ');
      for (const text of texts) await t.app.sms.send({ to: JOANNES.phoneNumber, text });
      const submits = await until('every text', () =>
        smsc.submits(from).length >= texts.length ? smsc.submits(from) : undefined,
      );
      expect(submits.map((s) => s.pdu.data_coding)).toEqual(texts.map(() => 8));
      expect(submits.map((s) => s.decoded?.text)).toEqual(texts);
    });
  },
);

describe('the bind, a code’s life and receipt ids (issue 61 §5)', () => {
  const smsc = fakeSmsc({ ids: 'hex' });
  let t: TestApp;
  let ip = 0;

  beforeAll(async () => {
    await smsc.start();
    t = await appWith(smsc.port, { SMPP_SYSTEM_TYPE: 'VMA', SMPP_ADDRESS_RANGE: '^298' });
    await seedDemoData(t.app.db, new Date());
    await until('the bind', () => smsc.received.some((r) => r.pdu.command === 'bind_transceiver'));
  });
  afterAll(async () => {
    await t?.close();
    await smsc.stop();
  });

  it('binds with the system_type and address_range of SMPP_SYSTEM_TYPE and SMPP_ADDRESS_RANGE (issue 61 §5)', () => {
    const bind = smsc.received.find((r) => r.pdu.command === 'bind_transceiver');
    expect(bind?.pdu).toMatchObject({
      system_id: 'alda',
      password: 'secret',
      system_type: 'VMA',
      address_range: '^298',
    });
  });

  it("gives a login code's SMS the code's life as validity_period, so the SMSC drops it once the code is dead; other SMS none (issue 61 §5)", async () => {
    const from = smsc.received.length;
    ip += 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-pin',
      remoteAddress: `10.61.5.${ip}`,
      headers: { 'accept-language': 'en' },
      payload: { phoneNumber: JOANNES.phoneNumber },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [submit] = smsc.submits(from);
    const code = /\b(\d{6})\b/.exec(submit?.decoded?.text ?? '')?.[1] ?? '';
    expect(submit?.decoded?.text).toBe(pinCodeSms('en', code, PIN_TTL_S / 60));
    // SMPP 3.4 relative time YYMMDDhhmmss000R: what is left of the code's 10 minutes.
    const relative = /^0000(\d\d)(\d\d)(\d\d)(\d\d)000R$/.exec(submit?.validity ?? '');
    expect(relative, submit?.validity ?? '').not.toBeNull();
    const [, dd, hh, mm, ss] = (relative ?? []).map(Number);
    const seconds = (dd ?? 0) * 86_400 + (hh ?? 0) * 3_600 + (mm ?? 0) * 60 + (ss ?? 0);
    expect(seconds).toBeLessThanOrEqual(PIN_TTL_S);
    expect(seconds).toBeGreaterThanOrEqual(PIN_TTL_S - 5);

    // A message whose content does not expire leaves it to the SMSC.
    const next = smsc.received.length;
    await t.app.sms.send({ to: JOANNES.phoneNumber, text: 'Alda: hetta gongur ikki út.' });
    const [plain] = await until('the plain message', () =>
      smsc.submits(next).length ? smsc.submits(next) : undefined,
    );
    expect(plain?.validity).toBe('');

    // The life is on the row, not in the memory of the instance that queued it: a row another
    // instance queued (here: put in the queue directly) goes out with what is left of it.
    const queued = smsc.received.length;
    await enqueueSms(
      t.app.db,
      {
        recipient: `298${SUNNEVA.phoneNumber}`,
        text: 'Alda: kotan er 654321.',
        encoding: 'gsm7',
        parts: 1,
        deadlineAt: null,
        expiresAt: new Date(Date.now() + 120_000),
      },
      new Date(),
    );
    const [elsewhere] = await until('the message queued elsewhere', () =>
      smsc.submits(queued).length ? smsc.submits(queued) : undefined,
    );
    const left = /^000000000(\d)(\d\d)000R$/.exec(elsewhere?.validity ?? '');
    expect(left, elsewhere?.validity ?? '').not.toBeNull();
    const leftS = Number(left?.[1]) * 60 + Number(left?.[2]);
    expect(leftS).toBeLessThanOrEqual(120);
    expect(leftS).toBeGreaterThanOrEqual(100);
  });

  it('matches a receipt whose id is the decimal form of the hex id of submit_sm_resp (issue 61 §5)', async () => {
    const from = smsc.received.length;
    await t.app.sms.send({ to: GUDRUN.phoneNumber, text: `Alda: ${'ð'.repeat(100)}` });
    await until('two parts', () => smsc.submits(from).length >= 2);
    const row = await until('the row sent', async () => {
      const r = await lastRowTo(t, GUDRUN.phoneNumber);
      return r.state === 'sent' ? r : undefined;
    });
    // The SMSC's ids are hex with a leading zero (000A1B2C05); its receipts say them in decimal.
    expect(row.smscIds.every((id) => /^0[0-9A-F]+$/.test(id))).toBe(true);
    for (const id of row.smscIds) {
      const decimal = BigInt(`0x${id}`).toString(10);
      const resp = await smsc.deliver({
        source_addr: `298${GUDRUN.phoneNumber}`,
        destination_addr: 'Alda',
        esm_class: 0x04,
        short_message: `id:${decimal} sub:001 dlvrd:001 submit date:2611260400 done date:2611260401 stat:DELIVRD err:000 text:Alda`,
      });
      expect(resp.command_status).toBe(0);
    }
    const delivered = await until('delivered', async () => {
      const r = await lastRowTo(t, GUDRUN.phoneNumber);
      return r.state === 'delivered' ? r : undefined;
    });
    // The parts are recorded by the ids the SMSC gave when it took them.
    expect(delivered.deliveredIds.toSorted()).toEqual(row.smscIds.toSorted());
  });
});

describe('SMPP over TLS (issue 61 §5)', () => {
  let dir = '';
  let caFile = '';
  let tls: { key: string; cert: string };
  let smsc: ReturnType<typeof fakeSmsc>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    // The SMSC's self-signed certificate for 127.0.0.1, made for this run.
    dir = mkdtempSync(path.join(tmpdir(), 'alda-smpps-'));
    const keyFile = path.join(dir, 'smsc.key');
    caFile = path.join(dir, 'smsc.pem');
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
        ...['-nodes', '-days', '1', '-subj', '/CN=smsc.test'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', caFile],
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(caFile, 'utf8') };
    smsc = fakeSmsc({ tls });
    await smsc.start();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await smsc?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const smppsUrl = () => `smpps://alda:secret@127.0.0.1:${smsc.port}`;

  it("binds over TLS with smpps://, verifying the SMSC's certificate against SMPP_TLS_CA, and sends over it (issue 61 §5)", async () => {
    const t = await appWith(smsc.port, { SMPP_URL: smppsUrl(), SMPP_TLS_CA: caFile });
    apps.push(t);
    const bind = await until('the bind over TLS', () =>
      smsc.received.find((r) => r.pdu.command === 'bind_transceiver'),
    );
    expect(bind.session.socket).toBeInstanceOf(TLSSocket);
    expect((bind.session.socket as TLSSocket).encrypted).toBe(true);
    expect(bind.pdu).toMatchObject({ system_id: 'alda', password: 'secret' });
    const from = smsc.received.length;
    const text = 'Kotan hjá tær til Alda er 654321.';
    await t.app.sms.send({ to: SUNNEVA.phoneNumber, text });
    const [submit] = await until('the submit over TLS', () =>
      smsc.submits(from).length ? smsc.submits(from) : undefined,
    );
    expect(submit?.decoded?.text).toBe(text);
  });

  it('never binds, nor sends the password, to an SMSC whose certificate it cannot verify (issue 61 §5)', async () => {
    const binds = () => smsc.received.filter((r) => r.pdu.command === 'bind_transceiver').length;
    const before = binds();
    // Without SMPP_TLS_CA the self-signed certificate is checked against the system's CAs.
    const t = await appWith(smsc.port, { SMPP_URL: smppsUrl() });
    apps.push(t);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(binds()).toBe(before);
    await expect(t.app.sms.send({ to: SUNNEVA.phoneNumber, text: 'Alda: x' })).resolves.toBe(
      undefined,
    );
    expect((await lastRowTo(t, SUNNEVA.phoneNumber)).state).toBe('queued');
  });
});
