import type { AuthSessionsResponse } from '@alda/contract/schemas/sessions';
import type { Db } from '../../db/client';
import type { SessionRow } from '../../db/schema/sessions';
import { AppError } from '../../errors';
import type { AuthUser } from '../../plugins/auth';
import { findActiveSessionsOfUser, revokeSessionOfUser, revokeSessionsOfUser } from './repo';

export interface SessionsServiceDeps {
  db: Db;
  now: () => Date;
  /** A session unused for this long has no working refresh token left (REFRESH_TOKEN_TTL_S). */
  refreshTokenTtlS: number;
}

/**
 * Sessions you can see (issue 14, OWASP ASVS 5.0 V7; docs/decisions/0059-sessions-you-can-see.md):
 * the customer's signed-in devices, and signing out one or all others. Ending a session goes
 * through the same revocation as logout and a new password: the row and its refresh tokens in
 * one transaction with the `session_revoked` NOTIFY, so every instance refuses its access
 * tokens as soon as the notice arrives, and this one at once (ADR 0057).
 */
export function createSessionsService(deps: SessionsServiceDeps) {
  const { db, now } = deps;

  return {
    /** The caller's signed-in sessions: the current one first, then the most recently seen. */
    async list(caller: AuthUser): Promise<AuthSessionsResponse> {
      const usedSince = new Date(now().getTime() - deps.refreshTokenTtlS * 1000);
      const rows = await findActiveSessionsOfUser(db, caller.id, usedSince);
      const current = rows.filter((row) => row.id === caller.sessionId);
      const others = rows.filter((row) => row.id !== caller.sessionId);
      return [...current, ...others].map((row) => toDto(row, caller.sessionId));
    },

    /**
     * Signs out one of the caller's sessions. Another user's session, an ended one or an unknown
     * id is 404 SESSION_NOT_FOUND — the same answer, so ids of others cannot be probed. The
     * current session may be ended too; that is a logout.
     */
    async signOut(caller: AuthUser, sessionId: string): Promise<void> {
      const at = now();
      const ended = await db.transaction((tx) =>
        revokeSessionOfUser(tx, caller.id, sessionId, 'signed_out', at),
      );
      if (!ended) throw new AppError('SESSION_NOT_FOUND');
    },

    /** Signs out every session of the caller but the current one; answers how many ended. */
    async signOutOthers(caller: AuthUser): Promise<number> {
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
    // No IP-to-country lookup is configured; unknown, not guessed (ADR 0059).
    country: null,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastUsedAt.toISOString(),
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
