import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { EmailSender, EmailStats } from './email-sender';

export interface SmtpOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
  url: string;
  /** `From` header, e.g. `Alda <no-reply@alda.fo>`. */
  from: string;
  log: FastifyBaseLogger;
  /**
   * Wait before the second attempt after a temporary failure (SMTP_RETRY_DELAY_MS); the third
   * and last waits 4 × as long.
   */
  retryDelayMs: number;
}

/** Attempts of one e-mail at most: the first and two more after temporary failures. */
export const SMTP_MAX_ATTEMPTS = 3;

/** What nodemailer puts on a failed send (`responseCode` and `permanent` when the server answered). */
const smtpFailure = z.looseObject({
  code: z.string().optional(),
  responseCode: z.number().optional(),
  response: z.string().optional(),
  command: z.string().optional(),
  permanent: z.boolean().optional(),
});

/**
 * An e-mail the mail server did not take. Its message and fields hold the SMTP reply code and
 * the enhanced status only: nodemailer's own message quotes the server's reply, which quotes
 * the address (`550 5.1.1 <x@y>: Recipient address rejected`), and a person's address must not
 * reach the log (log-privacy.ts).
 */
export class EmailNotSentError extends Error {
  override name = 'EmailNotSentError';
  constructor(
    /** The server refused it (5xx): sending it again would be refused again. */
    readonly permanent: boolean,
    readonly smtpCode: number | undefined,
    readonly attempts: number,
  ) {
    super(
      `${permanent ? 'mail server refused the e-mail' : 'mail server did not take the e-mail'}` +
        `${smtpCode ? ` (${smtpCode})` : ''} after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
    );
  }
}

/** The parts of a failure that say what went wrong and nothing about the recipient. */
function failureOf(error: unknown) {
  const parsed = smtpFailure.safeParse(error);
  const failure = parsed.success ? parsed.data : {};
  const smtpCode = failure.responseCode;
  return {
    smtpCode,
    // RFC 3463's enhanced status (5.1.1); the reply's text after it may quote the address.
    smtpStatus: /^\d{3}[ -](\d\.\d{1,3}\.\d{1,3})\b/.exec(failure.response ?? '')?.[1],
    command: failure.command,
    errorCode: failure.code,
    // RFC 5321: 5yz is permanent, 4yz transient; 503 (bad sequence) is a session problem that a
    // new connection does not have — nodemailer says so in `permanent`.
    permanent:
      failure.permanent ??
      (smtpCode !== undefined && smtpCode >= 500 && smtpCode < 600 && smtpCode !== 503),
  };
}

/**
 * E-mail through an SMTP server with nodemailer: a small connection pool, bounded waits, and a
 * multipart/alternative message (text and HTML) per e-mail.
 *
 * A temporary failure (4xx, a lost connection, a timeout) is tried again, at most
 * {@link SMTP_MAX_ATTEMPTS} times in all; a refusal (5xx: an unknown mailbox, a rejected domain)
 * ends at once — it would be refused again. Either way the failure is logged with its SMTP code
 * (never the address), counted in `stats`, and rejects with {@link EmailNotSentError}; the caller
 * decides whether the customer must hear of it.
 */
export function createSmtpSender(options: SmtpOptions): EmailSender {
  const { log } = options;
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  const stats: EmailStats = { sent: 0, retried: 0, refused: 0, failed: 0 };
  let closed = false;
  /** Waits between attempts; `close()` ends them (the send then gives up). */
  const waits = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  return {
    kind: 'smtp',
    stats,
    async send(message) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await transport.sendMail({
            from: options.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            attachments: (message.attachments ?? []).map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: a.content,
            })),
          });
          stats.sent += 1;
          if (attempt > 1) log.info({ attempts: attempt }, 'e-mail sent after a retry');
          return;
        } catch (error) {
          const { permanent, ...failure } = failureOf(error);
          if (permanent) {
            stats.refused += 1;
            log.warn({ ...failure, attempt }, 'e-mail refused by the mail server, not retried');
            throw new EmailNotSentError(true, failure.smtpCode, attempt);
          }
          if (attempt >= SMTP_MAX_ATTEMPTS || closed) {
            stats.failed += 1;
            log.error({ ...failure, attempts: attempt }, 'e-mail not sent: giving up');
            throw new EmailNotSentError(false, failure.smtpCode, attempt);
          }
          const retryInMs = options.retryDelayMs * 4 ** (attempt - 1);
          stats.retried += 1;
          log.warn({ ...failure, attempt, retryInMs }, 'e-mail not taken for now, retrying');
          await pause(retryInMs);
        }
      }
    },
    async close() {
      closed = true;
      for (const done of [...waits]) done();
      transport.close();
    },
  };
}
