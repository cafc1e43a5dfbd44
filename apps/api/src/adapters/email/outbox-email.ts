import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { insertOutboxMessage } from '../outbox/store';
import type { EmailSender } from './email-sender';

/**
 * The default when SMTP_URL is unset: e-mails are stored in `outbox_messages` (listed on
 * /dev/outbox in demo mode) and logged with their text, links included.
 */
export function createOutboxEmailSender(deps: { db: Db; log: FastifyBaseLogger }): EmailSender {
  return {
    kind: 'outbox',
    async send(message) {
      // The outbox keeps text, not files: an attachment is listed by name and size.
      const attached = (message.attachments ?? []).map(
        (a) => `[${a.filename}, ${a.contentType}, ${a.content.length} bytes]`,
      );
      const row = await insertOutboxMessage(deps.db, {
        channel: 'email',
        recipient: message.to.toLowerCase(),
        subject: message.subject,
        text: attached.length > 0 ? `${message.text}\n\n${attached.join('\n')}` : message.text,
        html: message.html,
      });
      deps.log.info(
        {
          outboxId: row.id,
          channel: 'email',
          to: row.recipient,
          subject: message.subject,
          text: message.text,
          attachments: attached,
        },
        'e-mail stored in the outbox',
      );
    },
    async close() {},
  };
}
