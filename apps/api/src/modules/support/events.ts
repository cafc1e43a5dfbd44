import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * The seam between support conversations and the support hub (issue 46 "live"), as the payment
 * hub's (payments/events.ts): whoever changes a conversation a customer should see at once calls
 * `notifySupportUpdated` in the same transaction; PostgreSQL delivers the NOTIFY at commit to
 * every API instance that LISTENs, and each sends SupportUpdated to that customer's connections.
 */
export const SUPPORT_UPDATED_CHANNEL = 'support_updated';

export interface SupportUpdatedNotice {
  conversationId: string;
  userId: string;
}

export async function notifySupportUpdated(db: Db, notice: SupportUpdatedNotice) {
  const payload = JSON.stringify({ conversationId: notice.conversationId, userId: notice.userId });
  await db.execute(sql`select pg_notify(${SUPPORT_UPDATED_CHANNEL}, ${payload})`);
}

export function parseSupportUpdatedNotice(payload: string): SupportUpdatedNotice | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (
      typeof value === 'object' &&
      value !== null &&
      'conversationId' in value &&
      'userId' in value &&
      typeof value.conversationId === 'string' &&
      typeof value.userId === 'string'
    )
      return { conversationId: value.conversationId, userId: value.userId };
  } catch {
    // fall through: a malformed notice is ignored
  }
  return null;
}
