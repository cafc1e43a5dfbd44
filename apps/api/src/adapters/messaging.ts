import { readFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { EmailSender, EmailStats } from './email/email-sender';
import { createOutboxEmailSender } from './email/outbox-email';
import { createSmtpSender } from './email/smtp';
import { createHttpSmsGateway } from './sms/http-gateway';
import { createOutboxSmsSender } from './sms/outbox-sms';
import { createSmppSender } from './sms/smpp-sender';
import type { SmsSender, SmsStats } from './sms/sms-sender';

export interface Messaging {
  sms: SmsSender;
  email: EmailSender;
}

/** The SMS adapter SMS_ADAPTER names (docs/decisions/0025, 0084). */
function createSms(config: Config, database: Database, log: FastifyBaseLogger): SmsSender {
  const db = database.db;
  switch (config.smsAdapter) {
    case 'http':
      if (!config.smsGatewayUrl) throw new Error('SMS_ADAPTER=http needs SMS_GATEWAY_URL');
      return createHttpSmsGateway({
        url: config.smsGatewayUrl,
        token: config.smsGatewayToken,
        sender: config.smsSender,
      });
    case 'smpp':
      if (!config.smppUrl) throw new Error('SMS_ADAPTER=smpp needs SMPP_URL');
      return createSmppSender({
        db,
        database,
        log,
        now: () => new Date(),
        url: config.smppUrl,
        tlsCa: config.smppTlsCa ? readTlsCa(config.smppTlsCa) : undefined,
        systemType: config.smppSystemType,
        addressRange: config.smppAddressRange,
        alphabet: config.smppAlphabet,
        sourceAddr: config.smppSourceAddr ?? config.smsSender,
        maxPerSecond: config.smppMaxPerSecond,
        enquireLinkS: config.smppEnquireLinkS,
        backoffMinMs: config.smppBackoffMinMs,
        backoffMaxMs: config.smppBackoffMaxMs,
      });
    case 'outbox':
      return createOutboxSmsSender({ db, log });
  }
}

/** SMPP_TLS_CA's certificates; a file that cannot be read stops the start, naming it. */
function readTlsCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`SMPP_TLS_CA ${file} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Picks the SMS and e-mail adapters from the configuration: SMS as SMS_ADAPTER says (the HTTP
 * gateway when only SMS_GATEWAY_URL is set), SMTP when SMTP_URL is set, the database outbox
 * otherwise.
 */
export function createMessaging(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
): Messaging {
  const sms = countedSms(createSms(config, database, log));
  const email = countedEmail(
    config.smtpUrl
      ? createSmtpSender({
          url: config.smtpUrl,
          from: config.mailFrom,
          log,
          retryDelayMs: config.smtpRetryDelayMs,
        })
      : createOutboxEmailSender({ db: database.db, log }),
  );
  return { sms, email };
}

/**
 * An SMS adapter that hands each message over in `send` (outbox, HTTP gateway) is counted here,
 * by how `send` ends; one that queues (SMPP) counts itself when the SMSC answers (issue 44).
 */
export function countedSms(sms: SmsSender): SmsSender {
  if (sms.stats) return sms;
  const stats: SmsStats = { sent: 0, failed: 0 };
  return {
    ...sms,
    kind: sms.kind,
    stats,
    async send(message) {
      try {
        await sms.send(message);
        stats.sent += 1;
      } catch (error) {
        stats.failed += 1;
        throw error;
      }
    },
  };
}

/** The same for e-mail: the SMTP adapter counts its own (with retries and refusals). */
export function countedEmail(email: EmailSender): EmailSender {
  if (email.stats) return email;
  const stats: EmailStats = { sent: 0, retried: 0, refused: 0, failed: 0 };
  return {
    kind: email.kind,
    stats,
    close: () => email.close(),
    async send(message) {
      try {
        await email.send(message);
        stats.sent += 1;
      } catch (error) {
        stats.failed += 1;
        throw error;
      }
    },
  };
}
