import type { FastifyBaseLogger } from 'fastify';
import { toWireNumber } from '@alda/contract/rules/phone';
import type { Db } from '../../db/client';
import { insertOutboxMessage } from '../outbox/store';
import type { SmsSender } from './sms-sender';

/**
 * The default SMS "gateway" when SMS_GATEWAY_URL is unset: the message is stored in
 * `outbox_messages` (listed on /dev/outbox in demo mode) and logged, so a developer can read the
 * code. Never use it where real customers sign in: the log then holds their codes.
 */
export function createOutboxSmsSender(deps: { db: Db; log: FastifyBaseLogger }): SmsSender {
  return {
    kind: 'outbox',
    async send(message) {
      const to = toWireNumber(message.to);
      const row = await insertOutboxMessage(deps.db, {
        channel: 'sms',
        recipient: to,
        text: message.text,
      });
      deps.log.info(
        { outboxId: row.id, channel: 'sms', to, text: message.text },
        'SMS stored in the outbox',
      );
    },
  };
}
