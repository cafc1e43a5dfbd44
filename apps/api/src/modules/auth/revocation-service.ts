import type { Db } from '../../db/client';
import { revokeSessionsOfUser } from './repo';

/*
 * Ending a customer's sessions on someone else's word — customer service, after a call (the
 * staff console, docs/decisions/0075-staff-console.md). The same revocation as logout, a new
 * password and the customer's own "sign out other devices" (ADR 0059): the sessions and their
 * refresh tokens in the caller's transaction together with the `session_revoked` NOTIFY, so
 * every instance refuses their access tokens once it is heard (this one at once, ADR 0057).
 * The customer re-authenticates nothing here: the staff member's reason is recorded instead, in
 * the same transaction, by the caller.
 */

/** Ends every live session of the customer; answers how many ended. */
export function endAllSessionsOfCustomer(tx: Db, userId: string, at: Date): Promise<number> {
  return revokeSessionsOfUser(tx, userId, 'signed_out', at);
}
