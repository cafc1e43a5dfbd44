import { normalizeEmail } from '@alda/contract/rules/email';
import type { AuthSessionsResponse, Reauthentication } from '@alda/contract/schemas/sessions';
import type { Db } from '../../db/client';
import type { SessionRow } from '../../db/schema/sessions';
import { AppError } from '../../errors';
import type { AuthUser } from '../../plugins/auth';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserById } from '../users/records';
import { dummyPasswordHash, verifyPassword } from './passwords';
import type { PhoneLoginService } from './phone-login-service';
import { findActiveSessionsOfUser, revokeSessionOfUser, revokeSessionsOfUser } from './repo';
import { emailLoginChecks, type ClientMeta } from './service';

export interface SessionsServiceDeps {
  db: Db;
  now: () => Date;
  /** A session unused for this long has no working refresh token left (REFRESH_TOKEN_TTL_S). */
  refreshTokenTtlS: number;
  limiter: RateLimiter;
  /** Checks the SMS confirmation code of a customer without a password. */
  codes: Pick<PhoneLoginService, 'confirmWithCode'>;
}

/**
 * Sessions you can see (issue 14, OWASP ASVS 5.0 V7; docs/decisions/0059-sessions-you-can-see.md):
 * the customer's signed-in devices, and signing out one or all others. Ending a session goes
 * through the same revocation as logout and a new password: the row and its refresh tokens in
 * one transaction with the `session_revoked` NOTIFY, so every instance refuses its access
 * tokens as soon as the notice arrives, and this one at once (ADR 0057). Ending another
 * session needs the customer to authenticate again (ASVS 5.0 7.5.2): a stolen session must not
 * be able to sign its owner out everywhere else.
 */
export function createSessionsService(deps: SessionsServiceDeps) {
  const { db, now, limiter } = deps;

  /**
   * The password again, counted as a login attempt: the e-mail login limits of the account (per
   * address and account, per account, per address — the same counters as POST
   * /auth/email-login, so guesses here and there add up) and the per-user limit of the other
   * password checks of a signed-in user (change password, PIN and PUK). A right password takes
   * its attempt back. Wrong: 422 PASSWORD_INCORRECT; over a limit: 429 TOO_MANY_ATTEMPTS.
   */
  async function checkPassword(caller: AuthUser, password: string, ip: string): Promise<void> {
    const user = await findUserById(db, caller.id);
    if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
    const permit = await limiter.consume([
      ...emailLoginChecks(normalizeEmail(user.email), ip),
      { policy: POLICIES.currentPassword, subject: [caller.id] },
    ]);
    // A user without a password fails after the same work (they confirm with a code instead).
    const ok = await verifyPassword(user.passwordHash ?? (await dummyPasswordHash()), password);
    if (!ok || !user.passwordHash) {
      throw new AppError('PASSWORD_INCORRECT', { field: 'password' });
    }
    await permit.refund();
  }

  /**
   * Authenticating again (ASVS 5.0 7.5.2): the password, or for a customer who has none the
   * SMS code of POST /auth/sessions/confirmation-code. Nothing else happens until it passes.
   */
  async function reauthenticate(
    caller: AuthUser,
    proof: Reauthentication,
    meta: ClientMeta,
  ): Promise<void> {
    if (proof.password !== undefined) return checkPassword(caller, proof.password, meta.ip);
    if (proof.code !== undefined) return deps.codes.confirmWithCode(caller, proof.code, meta);
    throw new AppError('VALIDATION_FAILED', { field: 'password', validationKey: 'REQUIRED' });
  }

  return {
    /**
     * The step-up of other sensitive changes (issue 32, ADR 0076: a number unlock, a new SIM):
     * the same checks and limits as ending another session.
     */
    reauthenticate,

    /** The caller's signed-in sessions: the current one first, then the most recently seen. */
    async list(caller: AuthUser): Promise<AuthSessionsResponse> {
      const usedSince = new Date(now().getTime() - deps.refreshTokenTtlS * 1000);
      const rows = await findActiveSessionsOfUser(db, caller.id, usedSince);
      const current = rows.filter((row) => row.id === caller.sessionId);
      const others = rows.filter((row) => row.id !== caller.sessionId);
      return [...current, ...others].map((row) => toDto(row, caller.sessionId));
    },

    /**
     * Signs out one of the caller's sessions once they have authenticated again. Another
     * user's session, an ended one or an unknown id is 404 SESSION_NOT_FOUND — the same answer,
     * so ids of others cannot be probed. The current session may be ended without a password:
     * that is a logout.
     */
    async signOut(
      caller: AuthUser,
      sessionId: string,
      proof: Reauthentication,
      meta: ClientMeta,
    ): Promise<void> {
      if (sessionId !== caller.sessionId) await reauthenticate(caller, proof, meta);
      const at = now();
      const ended = await db.transaction((tx) =>
        revokeSessionOfUser(tx, caller.id, sessionId, 'signed_out', at),
      );
      if (!ended) throw new AppError('SESSION_NOT_FOUND');
    },

    /**
     * Signs out every session of the caller but the current one, once they have authenticated
     * again; answers how many ended.
     */
    async signOutOthers(
      caller: AuthUser,
      proof: Reauthentication,
      meta: ClientMeta,
    ): Promise<number> {
      await reauthenticate(caller, proof, meta);
      const at = now();
      return db.transaction((tx) =>
        revokeSessionsOfUser(tx, caller.id, 'signed_out', at, caller.sessionId),
      );
    },
  };
}

function toDto(row: SessionRow, currentId: string): AuthSessionsResponse[number] {
  return {
    id: row.id,
    current: row.id === currentId,
    device: {
      name: row.deviceName,
      platform: row.devicePlatform,
      model: row.deviceModel,
      osVersion: row.deviceOsVersion,
      userAgent: row.userAgent,
    },
    // What the edge said at sign-in; null when it said nothing usable (ADR 0059).
    country: row.country,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastUsedAt.toISOString(),
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
