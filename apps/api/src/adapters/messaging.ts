import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { EmailSender } from './email/email-sender';
import { createOutboxEmailSender } from './email/outbox-email';
import { createSmtpSender } from './email/smtp';
import { createHttpSmsGateway } from './sms/http-gateway';
import { createOutboxSmsSender } from './sms/outbox-sms';
import { createSmppSender } from './sms/smpp-sender';
import type { SmsSender } from './sms/sms-sender';

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
  const sms = createSms(config, database, log);
  const email = config.smtpUrl
    ? createSmtpSender({
        url: config.smtpUrl,
        from: config.mailFrom,
        log,
        retryDelayMs: config.smtpRetryDelayMs,
      })
    : createOutboxEmailSender({ db: database.db, log });
  return { sms, email };
}
