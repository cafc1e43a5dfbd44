import { isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import smpp, { type ConnectOptions, type PDU, type Session } from 'smpp';

/*
 * The one SMPP 3.4 session of an instance (docs/decisions/0084-sms-smpp.md): a transceiver bind
 * (submit_sm out, deliver_sm receipts in, on one connection), kept alive with enquire_link and
 * bound again with exponential backoff whenever it is lost. The SMSC counts sessions per
 * system_id; one per instance keeps the count predictable (instances × 1). Over TLS where the
 * SMSC offers it (`smpps://`): the bind goes only after the SMSC's certificate was verified.
 */

/** SMPP 3.4's interface_version. */
const INTERFACE_VERSION = 0x34;

/** How long unbind may take on close before the socket is simply closed. */
const UNBIND_WAIT_MS = 2_000;

export interface SmppSessionOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** The bind's system_type and address_range, as the SMSC's operator gives them ('' for none). */
  systemType: string;
  addressRange: string;
  /** SMPP over TLS, verifying the SMSC's certificate against `ca` (PEM) or the system's CAs. */
  tls: { ca?: string | undefined } | null;
  /** Between enquire_links; one not answered by the next is a dead connection. */
  enquireLinkMs: number;
  /** Reconnect backoff: the first wait, doubled per failed try up to the last. */
  backoffMinMs: number;
  backoffMaxMs: number;
  /** Longest wait for a response (bind, submit_sm) before the connection counts as dead. */
  responseTimeoutMs: number;
  log: FastifyBaseLogger;
  /** A deliver_sm from the SMSC; answers the deliver_sm_resp's command_status. */
  onDeliver: (pdu: PDU) => Promise<number>;
  /** The session is bound (at start, and after every reconnect). */
  onBound: () => void;
}

/** The session is not bound (connecting, reconnecting, closed); the message waits. */
export class SmppNotBoundError extends Error {
  override name = 'SmppNotBoundError';
}

/** The connection broke, or the SMSC did not answer in time; whether it took the PDU is unknown. */
export class SmppConnectionError extends Error {
  override name = 'SmppConnectionError';
}

export interface SmppSession {
  /** Connects and binds; rebinds after every loss until {@link close}. */
  start(): void;
  readonly bound: boolean;
  /** Sends a PDU and resolves with the SMSC's response, whatever its command_status. */
  request(command: 'submit_sm', fields: Record<string, unknown>): Promise<PDU>;
  /** Unbinds (waits briefly for unbind_resp), closes, and stops reconnecting. */
  close(): Promise<void>;
}

/** The SMSC's command_status as a name where SMPP 3.4 has one: `ESME_RTHROTTLED (0x58)`. */
export function statusName(status: number): string {
  const name = Object.entries(smpp.errors).find(([, value]) => value === status)?.[0];
  const hex = `0x${status.toString(16).toUpperCase().padStart(2, '0')}`;
  return name ? `${name} (${hex})` : hex;
}

export function createSmppSession(options: SmppSessionOptions): SmppSession {
  const { log } = options;
  const smsc = `${options.host}:${options.port}`;
  let session: Session | null = null;
  let bound = false;
  let closing = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let enquireTimer: NodeJS.Timeout | null = null;
  /** Requests waiting for their response on the current connection, by sequence number. */
  const pending = new Map<PDU, (error: Error) => void>();

  function backoffMs(): number {
    return Math.min(options.backoffMaxMs, options.backoffMinMs * 2 ** Math.max(0, failures - 1));
  }

  /** Ends the connection at once (a dead link); the close handler reconnects. */
  function drop(current: Session, why: string): void {
    if (session !== current) return;
    log.warn({ smsc }, why);
    current.destroy();
  }

  function connect(): void {
    reconnectTimer = null;
    if (closing) return;
    const target: ConnectOptions = { host: options.host, port: options.port };
    if (options.tls) {
      target.tls = true;
      if (options.tls.ca) target.ca = options.tls.ca;
      // SNI and the certificate check name the host; an IP address is checked against the IP SANs.
      if (!isIP(options.host)) target.servername = options.host;
    }
    const current = smpp.connect(target);
    session = current;
    let lastError: Error | undefined;
    current.on('error', (error: Error) => {
      lastError = error;
    });
    // Over TLS the password goes only once the SMSC's certificate was verified.
    current.on(options.tls ? 'secureConnect' : 'connect', () => {
      const timer = setTimeout(
        () => drop(current, 'SMPP bind not answered; reconnecting'),
        options.responseTimeoutMs,
      );
      timer.unref();
      current.bind_transceiver(
        {
          system_id: options.systemId,
          password: options.password,
          system_type: options.systemType,
          interface_version: INTERFACE_VERSION,
          address_range: options.addressRange,
        },
        (resp) => {
          clearTimeout(timer);
          if (session !== current) return;
          if (resp.command_status !== 0) {
            log.error(
              { smsc, systemId: options.systemId, commandStatus: statusName(resp.command_status) },
              'SMPP bind refused',
            );
            current.destroy();
            return;
          }
          bound = true;
          failures = 0;
          log.info({ smsc, systemId: options.systemId, tls: !!options.tls }, 'SMPP session bound');
          keepAlive(current);
          options.onBound();
        },
      );
    });
    current.on('enquire_link', (pdu: PDU) => {
      current.send(pdu.response());
    });
    current.on('unbind', (pdu: PDU) => {
      bound = false;
      log.warn({ smsc }, 'SMPP session unbound by the SMSC; reconnecting');
      current.send(pdu.response(), () => current.close());
    });
    current.on('deliver_sm', (pdu: PDU) => {
      void options
        .onDeliver(pdu)
        .catch((error: unknown) => {
          log.warn({ err: error }, 'SMPP deliver_sm not handled; the SMSC will send it again');
          return smpp.errors.ESME_RX_T_APPN ?? 0x64;
        })
        .then((status) => current.send(pdu.response({ command_status: status })));
    });
    current.on('close', () => {
      if (enquireTimer) clearInterval(enquireTimer);
      enquireTimer = null;
      const wasBound = bound;
      if (session === current) {
        bound = false;
        session = null;
      }
      for (const [, reject] of pending) reject(new SmppConnectionError('SMPP connection closed'));
      pending.clear();
      if (closing) return;
      failures += 1;
      const inMs = backoffMs();
      log.warn(
        { smsc, inMs, ...(lastError ? { error: lastError.message } : {}) },
        wasBound ? 'SMPP connection lost; reconnecting' : 'SMPP connection failed; reconnecting',
      );
      reconnectTimer = setTimeout(connect, inMs);
      reconnectTimer.unref();
    });
  }

  /** enquire_link every interval; one still unanswered at the next tick means a dead link. */
  function keepAlive(current: Session): void {
    let answered = true;
    enquireTimer = setInterval(() => {
      if (!answered) {
        drop(current, 'SMPP enquire_link not answered; reconnecting');
        return;
      }
      answered = false;
      current.enquire_link({}, () => {
        answered = true;
      });
    }, options.enquireLinkMs);
    enquireTimer.unref();
  }

  return {
    start() {
      if (!session && !reconnectTimer && !closing) connect();
    },

    get bound() {
      return bound;
    },

    request(command, fields) {
      const current = session;
      if (!bound || !current) return Promise.reject(new SmppNotBoundError('SMPP not bound'));
      return new Promise<PDU>((resolve, reject) => {
        const pdu = new smpp.PDU(command, fields);
        const timer = setTimeout(() => {
          pending.delete(pdu);
          reject(new SmppConnectionError(`SMPP ${command} not answered`));
          drop(current, `SMPP ${command} not answered; reconnecting`);
        }, options.responseTimeoutMs);
        pending.set(pdu, (error) => {
          clearTimeout(timer);
          reject(error);
        });
        const written = current.send(pdu, (resp) => {
          clearTimeout(timer);
          pending.delete(pdu);
          resolve(resp);
        });
        if (!written) {
          clearTimeout(timer);
          pending.delete(pdu);
          reject(new SmppConnectionError('SMPP connection not writable'));
        }
      });
    },

    async close() {
      closing = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const current = session;
      if (!current) return;
      const closed = new Promise<void>((resolve) => current.once('close', () => resolve()));
      if (bound) {
        bound = false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, UNBIND_WAIT_MS);
          const sent = current.unbind({}, () => {
            clearTimeout(timer);
            resolve();
          });
          if (!sent) {
            clearTimeout(timer);
            resolve();
          }
        });
        log.info({ smsc }, 'SMPP session unbound');
      }
      current.close();
      const timer = setTimeout(() => current.destroy(), UNBIND_WAIT_MS);
      await closed;
      clearTimeout(timer);
    },
  };
}
