import { normalizeEmail } from '@alda/contract/rules/email';
import { fromWireNumber, toWireNumber } from '@alda/contract/rules/phone';
import type { OutboxMessage } from '@alda/contract/schemas/dev-outbox';
import type { Db } from '../../db/client';
import type { OutboxMessageRow } from '../../db/schema/outbox';
import { listOutboxMessages } from '../../adapters/outbox/store';

/** Most messages a listing shows. */
export const OUTBOX_PAGE_SIZE = 100;

function toDto(row: OutboxMessageRow): OutboxMessage {
  return {
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    html: row.html,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The recipient as stored: a lower-case address, or an SMS number as `298` + 6 digits. */
export function outboxRecipient(to: string): string {
  const trimmed = to.trim();
  if (trimmed.includes('@')) return normalizeEmail(trimmed);
  const local = fromWireNumber(trimmed);
  return local ? toWireNumber(local) : trimmed;
}

/** Reading the development outbox (/dev/outbox in demo mode). */
export function createOutboxService(deps: { db: Db }) {
  return {
    async list(to: string | undefined): Promise<OutboxMessage[]> {
      const rows = await listOutboxMessages(deps.db, {
        recipient: to ? outboxRecipient(to) : undefined,
        limit: OUTBOX_PAGE_SIZE,
      });
      return rows.map(toDto);
    },
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
