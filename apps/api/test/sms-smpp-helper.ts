import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Server, type Session } from 'smpp';

/*
 * The SMSC of the SMPP tests (docs/decisions/0084-sms-smpp.md): the `smpp` library's server mode
 * on a local port, plain or over TLS. It records every PDU it receives, and decodes each
 * submit_sm's short_message itself from the octets on the wire, as an SMSC whose default
 * alphabet (data_coding 0) is `alphabet` would: GSM 03.38 one septet an octet, packed, or
 * ISO-8859-1 (the library's own decoding knows only the first).
 */

export type SmscAlphabet = 'gsm7' | 'gsm7-packed' | 'latin1';

export interface Received {
  at: number;
  pdu: PDU;
  session: Session;
  /** A submit_sm's short_message as it came, octet for octet (null for other PDUs). */
  octets: Buffer | null;
  /** A submit_sm's validity_period as it came ('' for none; null for other PDUs). */
  validity: string | null;
  /** A submit_sm's text and UDH, decoded by data_coding and the SMSC's default alphabet. */
  decoded: { text: string; udh: number[] | null } | null;
}

export interface FakeSmscOptions {
  /** What data_coding 0 is to this SMSC; `gsm7` when unset. */
  alphabet?: SmscAlphabet;
  /** The message ids of its submit_sm_resp: `m1`, `m2`… or hexadecimal with a leading zero. */
  ids?: 'plain' | 'hex';
  /** Serve SMPP over TLS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
}

/** Packed GSM-7 septets (TS 23.038 §6.1.2.1.1) behind `fillBits`; a CR in 7 spare bits dropped. */
export function unpackSeptets(octets: Buffer, fillBits = 0): Buffer {
  const count = Math.floor((octets.length * 8 - fillBits) / 7);
  const septets: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const bit = fillBits + i * 7;
    const pair = (octets[bit >> 3] ?? 0) | ((octets[(bit >> 3) + 1] ?? 0) << 8);
    septets.push((pair >> (bit & 7)) & 0x7f);
  }
  // A CR where a reader of octets finds 7 bits too many is padding (§6.1.2.3.1).
  if ((fillBits + count * 7) % 8 === 0 && count > 0 && septets.at(-1) === 0x0d) septets.pop();
  return Buffer.from(septets);
}

/** How this SMSC reads a short_message: UDH first when esm_class says so, then the text. */
function decode(
  alphabet: SmscAlphabet,
  dataCoding: number,
  esmClass: number,
  octets: Buffer,
): { text: string; udh: number[] | null } {
  const udhLength = esmClass & 0x40 ? (octets[0] ?? 0) + 1 : 0;
  const udh = udhLength ? [...octets.subarray(1, udhLength)] : null;
  const body = octets.subarray(udhLength);
  if (dataCoding === 8) return { text: Buffer.from(body).swap16().toString('utf16le'), udh };
  if (dataCoding === 3) return { text: body.toString('latin1'), udh };
  if (dataCoding !== 0) throw new Error(`data_coding ${dataCoding} not expected`);
  switch (alphabet) {
    case 'gsm7':
      return { text: smpp.gsmCoder.decode(body), udh };
    case 'latin1':
      return { text: body.toString('latin1'), udh };
    case 'gsm7-packed': {
      // Packed septets start at the first septet boundary after the UDH (TS 23.040 §9.2.3.24).
      const fill = udhLength ? (7 - ((udhLength * 8) % 7)) % 7 : 0;
      return { text: smpp.gsmCoder.decode(unpackSeptets(body, fill)), udh };
    }
  }
}

/**
 * A submit_sm's validity_period and short_message as they are on the wire, read by the library's
 * field types without its decoding filters.
 */
function rawSubmit(pduOctets: Buffer): { validity: string; octets: Buffer } | null {
  const params = (
    smpp as unknown as {
      commands: Record<
        string,
        {
          params: Record<
            string,
            {
              type: {
                read(buffer: Buffer, offset: number): unknown;
                size(value: unknown): number;
              };
            }
          >;
        }
      >;
    }
  ).commands.submit_sm?.params;
  if (!params) return null;
  let offset = 16;
  let validity = '';
  for (const [name, param] of Object.entries(params)) {
    const value = param.type.read(pduOctets, offset);
    if (name === 'validity_period') validity = String(value);
    if (name === 'short_message') return { validity, octets: Buffer.from(value as Buffer) };
    offset += param.type.size(value);
  }
  return null;
}

/**
 * An SMSC: accepts binds of `alda`/`secret`, answers submit_sm with a new message id (or what
 * `answer` says), and records every PDU it receives with the time it came.
 */
export function fakeSmsc(options: FakeSmscOptions = {}) {
  const alphabet = options.alphabet ?? 'gsm7';
  const received: Received[] = [];
  const sessions = new Set<Session>();
  let server: Server | null = null;
  let port = 0;
  let nextId = 1;
  const messageId = () =>
    options.ids === 'hex'
      ? (0x0a1b2c00 + nextId++).toString(16).toUpperCase().padStart(10, '0')
      : `m${nextId++}`;
  const smsc = {
    received,
    /** command_status for a submit_sm (0 = accepted), or 'hang' for no answer. */
    answer: (_pdu: PDU): number | 'hang' => 0,
    get port() {
      return port;
    },
    /** The submit_sm PDUs received since `from` (an index into `received`). */
    submits(from = 0): Received[] {
      return received.slice(from).filter((r) => r.pdu.command === 'submit_sm');
    },
    async start(at = 0): Promise<void> {
      const onSession = (session: Session) => {
        sessions.add(session);
        // The octets as they come (read by the library in PDU-sized pieces), for short_message.
        let pending = Buffer.alloc(0);
        const rawSubmits = new Map<number, { validity: string; octets: Buffer }>();
        session.socket.on('data', (chunk: Buffer) => {
          pending = Buffer.concat([pending, chunk]);
          while (pending.length >= 16 && pending.length >= pending.readUInt32BE(0)) {
            const length = pending.readUInt32BE(0);
            const one = pending.subarray(0, length);
            pending = pending.subarray(length);
            if (one.readUInt32BE(4) === 0x00000004) {
              const raw = rawSubmit(one);
              if (raw) rawSubmits.set(one.readUInt32BE(12), raw);
            }
          }
        });
        session.on('error', () => {});
        session.on('close', () => sessions.delete(session));
        session.on('pdu', (pdu: PDU) => {
          const raw =
            pdu.command === 'submit_sm' ? (rawSubmits.get(pdu.sequence_number) ?? null) : null;
          rawSubmits.delete(pdu.sequence_number);
          received.push({
            at: Date.now(),
            pdu,
            session,
            octets: raw?.octets ?? null,
            validity: raw?.validity ?? null,
            decoded: raw
              ? decode(alphabet, pdu.data_coding ?? 0, pdu.esm_class ?? 0, raw.octets)
              : null,
          });
        });
        session.on('bind_transceiver', (pdu: PDU) => {
          const ok = pdu.system_id === 'alda' && pdu.password === 'secret';
          session.send(pdu.response(ok ? { system_id: 'FAKE-SMSC' } : { command_status: 0x0e }));
        });
        session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
        session.on('unbind', (pdu: PDU) => session.send(pdu.response(), () => session.close()));
        session.on('submit_sm', (pdu: PDU) => {
          const status = smsc.answer(pdu);
          if (status === 'hang') return;
          session.send(
            pdu.response(status ? { command_status: status } : { message_id: messageId() }),
          );
        });
      };
      const s = options.tls
        ? smpp.createServer({ key: options.tls.key, cert: options.tls.cert }, onSession)
        : smpp.createServer(onSession);
      await new Promise<void>((resolve) => s.listen(at, '127.0.0.1', resolve));
      port = (s.address() as AddressInfo).port;
      server = s;
    },
    async stop(): Promise<void> {
      const s = server;
      server = null;
      for (const session of sessions) session.destroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    /** Sends a deliver_sm on the newest session; resolves with the app's deliver_sm_resp. */
    deliver(fields: Record<string, unknown>): Promise<PDU> {
      const session = [...sessions].at(-1);
      if (!session) throw new Error('no session to deliver on');
      return new Promise((resolve) => session.deliver_sm(fields, resolve));
    },
  };
  return smsc;
}

/** A port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Waits until `check` holds (polled), or fails naming `what`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text and UDH of a submit_sm as the library decoded it. */
export function shortMessageOf(pdu: PDU): { text: string; udh: number[] | null } {
  const message = pdu.short_message;
  if (!message || Buffer.isBuffer(message) || typeof message === 'string')
    throw new Error('short_message not decoded');
  return {
    text: String(message.message),
    udh: message.udh?.[0] ? [...message.udh[0]] : null,
  };
}

/** The SMPP adapter's settings for an SMSC on `port` of this machine. */
export const smppEnv = (port: number, more: Record<string, string> = {}) => ({
  SMS_ADAPTER: 'smpp',
  SMPP_URL: `smpp://alda:secret@127.0.0.1:${port}`,
  SMPP_SOURCE_ADDR: 'Alda',
  SMPP_MAX_PER_SECOND: '1000',
  // Short enough for the keep-alive test, long enough that a busy machine drops no link.
  SMPP_ENQUIRE_LINK_S: '1',
  SMPP_BACKOFF_MIN_MS: '50',
  SMPP_BACKOFF_MAX_MS: '200',
  SMS_CODE_WAIT_S: '3',
  ...more,
});
