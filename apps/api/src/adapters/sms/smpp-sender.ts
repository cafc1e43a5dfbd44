import type { FastifyBaseLogger } from 'fastify';
import type { PDU } from 'smpp';
import { fromWireNumber, toWireNumber } from '@alda/contract/rules/phone';
import type { Database, Db } from '../../db/client';
import type { OutboxMessageRow } from '../../db/schema/outbox';
import {
  SMS_QUEUED_CHANNEL,
  applyReceipt,
  claimDueSms,
  enqueueSms,
  failOverdueSms,
  failUnsent,
  findSmsState,
  markFailed,
  markRetry,
  markSubmitted,
  nextDueAt,
} from '../outbox/sms-queue';
import { splitSms, smsPdus, type SmppAlphabet } from './gsm7';
import { parseDeliveryReceipt, receiptError } from './smpp-receipt';
import {
  SmppConnectionError,
  SmppNotBoundError,
  createSmppSession,
  statusName,
  type SmppSession,
} from './smpp-session';
import { SmsDeliveryError, type SmsSender, type SmsStats } from './sms-sender';

/*
 * SMS over SMPP 3.4 (issue 43, docs/decisions/0084-sms-smpp.md). `send` queues the message as
 * a row of outbox_messages; the dispatcher of each instance submits queued rows over its one
 * bound session, at most SMPP_MAX_PER_SECOND submit_sm a second, retries temporary refusals with
 * backoff, and reads the SMSC's delivery receipts into the row. A one-time code's send waits until
 * the SMSC has accepted every part, and fails the row when its deadline comes first.
 */

export interface SmppSenderOptions {
  db: Db;
  /** LISTEN for rows queued by other instances. */
  database: Pick<Database, 'listen'>;
  log: FastifyBaseLogger;
  now: () => Date;
  /** `smpp://system_id:password@host:port`, or `smpps://…` for SMPP over TLS. */
  url: string;
  /** SMPP_TLS_CA's certificates (PEM) to verify the SMSC's with; unset: the system's CAs. */
  tlsCa?: string | undefined;
  /** The bind's system_type and address_range (SMPP_SYSTEM_TYPE, SMPP_ADDRESS_RANGE). */
  systemType?: string | undefined;
  addressRange?: string | undefined;
  /** What the SMSC takes data_coding 0 to be (SMPP_ALPHABET); `gsm7` when unset. */
  alphabet?: SmppAlphabet;
  /** SMPP_SOURCE_ADDR: digits (an international number) or up to 11 letters and digits. */
  sourceAddr: string;
  maxPerSecond: number;
  enquireLinkS: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** Longest wait for a response of the SMSC (bind, submit_sm). */
  responseTimeoutMs?: number;
}

export interface SmppSender extends SmsSender {
  readonly kind: 'smpp';
  readonly stats: Readonly<SmsStats>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** command_status values worth another try: the SMSC is busy, throttling, or failed inside. */
const TEMPORARY = new Set([
  0x08, // ESME_RSYSERR
  0x14, // ESME_RMSGQFUL
  0x58, // ESME_RTHROTTLED
  0x64, // ESME_RX_T_APPN
]);
const THROTTLED = 0x58;
/** Submit rounds after which a message the SMSC keeps refusing for the moment is given up. */
const MAX_ATTEMPTS = 12;
/** How long a dispatcher holds a claimed row; longer than any submit of its parts can take. */
const LEASE_MS = 5 * 60_000;
/** A waiting code send also reads its row this often (another instance may have sent it). */
const WAIT_POLL_MS = 1_000;
/** Longest sleep of an idle dispatcher between looks at the queue's next due row. */
const MAX_IDLE_MS = 60_000;
/** A receipt that names no row yet is tried again this often, this many times. */
const RECEIPT_RETRY_MS = 1_000;
const RECEIPT_RETRIES = 30;

/**
 * Where the SMSC is and who we are there, from `smpp://system_id:password@host:port`;
 * `smpps://` is SMPP over TLS, on port 3550 (IANA's ssmpp) when none is given.
 */
export function parseSmppUrl(url: string): {
  host: string;
  port: number;
  systemId: string;
  password: string;
  tls: boolean;
} {
  const parsed = new URL(url);
  if (parsed.protocol !== 'smpp:' && parsed.protocol !== 'smpps:') {
    throw new Error('SMPP_URL must start with smpp:// or smpps://');
  }
  if (!parsed.hostname || !parsed.username) {
    throw new Error('SMPP_URL must name the system_id and the host: smpp://id:password@host:port');
  }
  const tls = parsed.protocol === 'smpps:';
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : tls ? 3550 : 2775,
    systemId: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    tls,
  };
}

/**
 * SMPP 3.4 §7.1.1 relative time `YYMMDDhhmmsstnnR` for `seconds` from the SMSC's receipt of the
 * PDU (days, hours, minutes and seconds; at most 99 days). Relative, so the SMSC's clock and
 * time zone do not matter.
 */
export function relativeSmppTime(seconds: number): string {
  let left = Math.min(99 * 86_400 + 86_399, Math.max(0, Math.floor(seconds)));
  const units = [86_400, 3_600, 60, 1].map((size) => {
    const value = Math.floor(left / size);
    left -= value * size;
    return String(value).padStart(2, '0');
  });
  return `0000${units.join('')}000R`;
}

/** Source address: a number is international (TON 1, NPI 1), a name alphanumeric (TON 5, NPI 0). */
export function sourceAddress(sourceAddr: string): { ton: number; npi: number; addr: string } {
  return /^\+?\d+$/.test(sourceAddr)
    ? { ton: 1, npi: 1, addr: sourceAddr.replace(/^\+/, '') }
    : { ton: 5, npi: 0, addr: sourceAddr };
}

/** The concatenation reference of a message: from its id, so every retry uses the same. */
function referenceOf(id: string): number {
  return Number.parseInt(id.slice(-2), 16) || 0;
}

/** Spaces submit_sm PDUs evenly: at most `perSecond` a second on this instance. */
function createThrottle(perSecond: number) {
  const gapMs = 1000 / perSecond;
  let next = 0;
  return {
    async slot(): Promise<void> {
      const now = Date.now();
      const at = Math.max(now, next);
      next = at + gapMs;
      if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
    },
    /** The SMSC said it is throttling: no submit from this instance for `ms`. */
    pause(ms: number): void {
      next = Math.max(next, Date.now() + ms);
    },
  };
}

export function createSmppSender(options: SmppSenderOptions): SmppSender {
  const { db, log, now } = options;
  const stats: SmsStats = { sent: 0, failed: 0 };
  const source = sourceAddress(options.sourceAddr);
  const alphabet = options.alphabet ?? 'gsm7';
  const throttle = createThrottle(options.maxPerSecond);
  const backoffMs = (attempts: number) =>
    Math.min(options.backoffMaxMs, options.backoffMinMs * 2 ** Math.max(0, attempts - 1));
  /** Local waiters of code sends, woken when this instance's dispatcher settles their row. */
  const waiters = new Map<string, Set<() => void>>();
  const settled = (id: string) => {
    for (const wake of waiters.get(id) ?? []) wake();
  };

  let stopped = false;
  let round: Promise<void> | null = null;
  let again = false;
  let idleTimer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  const receiptRetries = new Set<NodeJS.Timeout>();

  const { tls, ...smsc } = parseSmppUrl(options.url);
  const session: SmppSession = createSmppSession({
    ...smsc,
    tls: tls ? { ca: options.tlsCa } : null,
    systemType: options.systemType ?? '',
    addressRange: options.addressRange ?? '',
    enquireLinkMs: options.enquireLinkS * 1000,
    backoffMinMs: options.backoffMinMs,
    backoffMaxMs: options.backoffMaxMs,
    responseTimeoutMs: options.responseTimeoutMs ?? 10_000,
    log,
    onDeliver: deliver,
    onBound: () => wake(),
  });

  /** Runs a dispatch round now, or right after the running one. */
  function wake(): void {
    if (stopped) return;
    if (round) {
      again = true;
      return;
    }
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    round = dispatch()
      .catch((error: unknown) => log.warn({ err: error }, 'SMS dispatch round failed'))
      .finally(() => {
        round = null;
        if (again) {
          again = false;
          wake();
        } else void sleepUntilDue();
      });
  }

  /** Sleeps until the queue's next row falls due (a retry, or another instance's lease). */
  async function sleepUntilDue(): Promise<void> {
    if (stopped || !session.bound) return;
    const at = await nextDueAt(db).catch(() => null);
    if (stopped || round || !at) return;
    const inMs = Math.min(MAX_IDLE_MS, Math.max(0, at.getTime() - now().getTime()));
    idleTimer = setTimeout(wake, inMs);
    idleTimer.unref();
  }

  /** Claims due rows and submits them while the session is bound. */
  async function dispatch(): Promise<void> {
    const overdue = await failOverdueSms(db, now());
    stats.failed += overdue;
    if (overdue > 0) log.warn({ count: overdue }, 'one-time code SMS not sent within its deadline');
    const batch = Math.max(1, Math.ceil(options.maxPerSecond));
    while (session.bound && !stopped) {
      const at = now();
      const lease = new Date(at.getTime() + LEASE_MS);
      const rows = await claimDueSms(db, { now: at, lease, limit: batch });
      if (rows.length === 0) return;
      const outcomes = await Promise.all(rows.map((row) => submit(row, lease)));
      // The connection went: the rows wait for the next bind, which wakes the dispatcher.
      if (outcomes.includes('connection lost')) return;
    }
  }

  /** Submits the parts of one claimed row not yet accepted, in order, and records the outcome. */
  async function submit(row: OutboxMessageRow, lease: Date): Promise<'done' | 'connection lost'> {
    const pdus = smsPdus(row.text, referenceOf(row.id), alphabet);
    const ids = [...row.smscIds];
    // The content's life (SmsMessage.validityS), stored on the row: any instance may send it.
    const expiry = row.expiresAt;
    try {
      for (let part = ids.length; part < pdus.shortMessages.length; part += 1) {
        await throttle.slot();
        // A code whose deadline passed while it waited for its turn stays unsent.
        if (row.deadlineAt && now() >= row.deadlineAt) return 'done';
        const lifeS = expiry ? (expiry.getTime() - now().getTime()) / 1000 : null;
        if (lifeS !== null && lifeS < 1) {
          await markFailed(db, row.id, lease, {
            smscIds: ids,
            error: 'expired before it was sent',
            now: now(),
          });
          stats.failed += 1;
          log.warn({ outboxId: row.id }, 'SMS expired before it was sent');
          return 'done';
        }
        const resp = await session.request('submit_sm', {
          source_addr_ton: source.ton,
          source_addr_npi: source.npi,
          source_addr: source.addr,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: row.recipient,
          esm_class: pdus.esmClass,
          registered_delivery: 1,
          // The content's remaining life: the SMSC drops it undelivered after that.
          ...(lifeS !== null ? { validity_period: relativeSmppTime(lifeS) } : {}),
          data_coding: pdus.dataCoding,
          short_message: pdus.shortMessages[part],
        });
        if (resp.command_status === 0) {
          ids.push(resp.message_id ?? '');
          continue;
        }
        await refused(row, lease, ids, resp.command_status);
        return 'done';
      }
      if (await markSubmitted(db, row.id, lease, ids, now())) {
        stats.sent += 1;
        log.info(
          { outboxId: row.id, encoding: pdus.encoding, parts: ids.length, smscIds: ids },
          'SMS submitted',
        );
      } else {
        log.warn({ outboxId: row.id }, 'SMS submitted after its row was failed or taken over');
      }
      return 'done';
    } catch (error) {
      if (!(error instanceof SmppNotBoundError || error instanceof SmppConnectionError))
        throw error;
      // The connection is gone: the message waits for the next bind, not counted as an attempt.
      await markRetry(db, row.id, lease, {
        smscIds: ids,
        retryAt: now(),
        error: null,
        uncount: true,
      });
      return 'connection lost';
    } finally {
      settled(row.id);
    }
  }

  /** A submit_sm refused: retried with backoff when temporary, failed otherwise. */
  async function refused(
    row: OutboxMessageRow,
    lease: Date,
    ids: readonly string[],
    status: number,
  ): Promise<void> {
    const error = statusName(status);
    if (TEMPORARY.has(status) && row.attempts < MAX_ATTEMPTS) {
      const inMs = backoffMs(row.attempts);
      if (status === THROTTLED) throttle.pause(options.backoffMinMs);
      await markRetry(db, row.id, lease, {
        smscIds: ids,
        retryAt: new Date(now().getTime() + inMs),
        error,
      });
      log.warn(
        { outboxId: row.id, commandStatus: error, attempt: row.attempts, inMs },
        status === THROTTLED
          ? 'SMS throttled by the SMSC; retrying'
          : 'SMS not accepted by the SMSC for now; retrying',
      );
      return;
    }
    const reason = TEMPORARY.has(status) ? `${error} after ${row.attempts} attempts` : error;
    await markFailed(db, row.id, lease, { smscIds: ids, error: reason, now: now() });
    stats.failed += 1;
    log.error({ outboxId: row.id, commandStatus: reason }, 'SMS refused by the SMSC');
  }

  /** A deliver_sm: a receipt moves its row; anything else (a reply from a phone) is ignored. */
  async function deliver(pdu: PDU): Promise<number> {
    const message = pdu.short_message;
    const text =
      typeof message === 'string'
        ? message
        : message && !Buffer.isBuffer(message)
          ? String(message.message)
          : message?.toString('latin1');
    const receipt = parseDeliveryReceipt({
      esm_class: pdu.esm_class,
      receipted_message_id: pdu.receipted_message_id,
      message_state: pdu.message_state,
      network_error_code: pdu.network_error_code,
      text,
    });
    if (!receipt || receipt.outcome === 'pending') return 0;
    const phone = pdu.source_addr ? fromWireNumber(pdu.source_addr) : null;
    await applyReceiptOrWait(
      {
        smscId: receipt.messageId,
        // A receipt names the phone as its source: an id in another form is matched on its rows.
        recipient: phone ? toWireNumber(phone) : null,
        outcome: receipt.outcome,
        error: receipt.outcome === 'failed' ? receiptError(receipt) : null,
      },
      0,
    );
    return 0;
  }

  /**
   * Applies a receipt; one that names no row yet (it overtook the write of the submit's ids) is
   * tried again for a while, off the deliver_sm_resp path.
   */
  async function applyReceiptOrWait(
    receipt: Parameters<typeof applyReceipt>[1],
    tries: number,
  ): Promise<void> {
    const result = await applyReceipt(db, receipt, now());
    if (result.found) {
      if (result.state === 'delivered') log.info({ outboxId: result.id }, 'SMS delivered');
      if (result.state === 'failed' && receipt.outcome === 'failed')
        log.warn({ outboxId: result.id, error: receipt.error }, 'SMS not delivered');
      return;
    }
    if (tries >= RECEIPT_RETRIES || stopped) {
      log.warn({ smscId: receipt.smscId }, 'SMPP receipt for an unknown message');
      return;
    }
    const timer = setTimeout(() => {
      receiptRetries.delete(timer);
      void applyReceiptOrWait(receipt, tries + 1).catch((error: unknown) =>
        log.warn({ err: error }, 'SMPP receipt not applied'),
      );
    }, RECEIPT_RETRY_MS);
    timer.unref();
    receiptRetries.add(timer);
  }

  /**
   * Waits until the SMSC has accepted the row, at most `deadlineS`; then fails it so it never
   * goes out later. Resolves when sent; throws {@link SmsDeliveryError} otherwise.
   */
  async function waitUntilSubmitted(id: string, deadlineS: number, start: Date): Promise<void> {
    const deadline = start.getTime() + deadlineS * 1000;
    const signals = waiters.get(id) ?? new Set<() => void>();
    waiters.set(id, signals);
    try {
      for (;;) {
        const row = await findSmsState(db, id);
        if (row?.state === 'sent' || row?.state === 'delivered') return;
        if (row?.state === 'failed') {
          throw new SmsDeliveryError(`SMS refused: ${row.error ?? 'unknown error'}`, {
            permanent: true,
          });
        }
        const left = deadline - now().getTime();
        if (left <= 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, WAIT_POLL_MS));
          function done() {
            clearTimeout(timer);
            signals.delete(done);
            resolve();
          }
          signals.add(done);
        });
      }
    } finally {
      if (signals.size === 0) waiters.delete(id);
    }
    const reason = `not sent within ${deadlineS} s`;
    if (await failUnsent(db, id, reason, now())) {
      stats.failed += 1;
      log.warn({ outboxId: id, deadlineS }, 'one-time code SMS not sent within its deadline');
      throw new SmsDeliveryError(`SMS ${reason}`);
    }
    // The dispatcher settled it in the last moment.
    const row = await findSmsState(db, id);
    if (row?.state === 'sent' || row?.state === 'delivered') return;
    throw new SmsDeliveryError(`SMS refused: ${row?.error ?? 'unknown error'}`, {
      permanent: true,
    });
  }

  return {
    kind: 'smpp',
    stats,

    async send(message) {
      const split = splitSms(message.text, alphabet);
      const at = now();
      const row = await enqueueSms(
        db,
        {
          recipient: toWireNumber(message.to),
          text: message.text,
          encoding: split.encoding,
          parts: split.parts.length,
          deadlineAt: message.deadlineS ? new Date(at.getTime() + message.deadlineS * 1000) : null,
          expiresAt: message.validityS ? new Date(at.getTime() + message.validityS * 1000) : null,
        },
        at,
      );
      wake();
      if (message.deadlineS) await waitUntilSubmitted(row.id, message.deadlineS, at);
    },

    async start() {
      unlisten = await options.database.listen(SMS_QUEUED_CHANNEL, () => wake(), {
        onReconnected: () => wake(),
      });
      session.start();
    },

    async close() {
      stopped = true;
      if (idleTimer) clearTimeout(idleTimer);
      for (const timer of receiptRetries) clearTimeout(timer);
      receiptRetries.clear();
      await round;
      await unlisten?.();
      await session.close();
    },
  };
}
