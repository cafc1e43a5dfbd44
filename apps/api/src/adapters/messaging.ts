import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { EmailSender } from './email/email-sender';
import { createOutboxEmailSender } from './email/outbox-email';
import { createSmtpSender } from './email/smtp';
import { createHttpSmsGateway } from './sms/http-gateway';
import { createOutboxSmsSender } from './sms/outbox-sms';
import type { SmsSender } from './sms/sms-sender';

export interface Messaging {
  sms: SmsSender;
  email: EmailSender;
}

/**
 * Picks the SMS and e-mail adapters from the configuration: the HTTP gateway when
 * SMS_GATEWAY_URL is set, SMTP when SMTP_URL is set, the database outbox otherwise.
 */
export function createMessaging(config: Config, db: Db, log: FastifyBaseLogger): Messaging {
  const sms = config.smsGatewayUrl
    ? createHttpSmsGateway({
        url: config.smsGatewayUrl,
        token: config.smsGatewayToken,
        sender: config.smsSender,
      })
    : createOutboxSmsSender({ db, log });
  const email = config.smtpUrl
    ? createSmtpSender({ url: config.smtpUrl, from: config.mailFrom })
    : createOutboxEmailSender({ db, log });
  return { sms, email };
}
