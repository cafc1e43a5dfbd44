import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recentWrites } from '../../db/recent-writes';

/**
 * NOTIFY channel of ended sessions (logout, password change or reset, refresh-token reuse). Sent
 * in the transaction that revokes them, so it is heard only once they are revoked; every API
 * instance hears it (PostgreSQL LISTEN; PGlite in-process) and closes the payment-hub
 * connections those sessions opened (ADR 0051).
 */
export const SESSION_REVOKED_CHANNEL = 'session_revoked';

/** Session ids per NOTIFY: a payload must stay under PostgreSQL's 8000 bytes. */
const IDS_PER_NOTICE = 150;

export async function notifySessionsRevoked(db: Db, sessionIds: readonly string[]): Promise<void> {
  // Until the notice is heard, this process checks these sessions in the database (ADR 0057).
  recentWrites.mark(sessionIds);
  for (let i = 0; i < sessionIds.length; i += IDS_PER_NOTICE) {
    const payload = JSON.stringify(sessionIds.slice(i, i + IDS_PER_NOTICE));
    await db.execute(sql`select pg_notify(${SESSION_REVOKED_CHANNEL}, ${payload})`);
  }
}

/** The session ids of a notice; an empty list for anything malformed. */
export function parseSessionsRevoked(payload: string): string[] {
  try {
    const value: unknown = JSON.parse(payload);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
