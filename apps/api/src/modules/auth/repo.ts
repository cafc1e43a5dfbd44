import { and, desc, eq, gt, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  refreshTokens,
  sessions,
  type RefreshTokenRow,
  type SessionRow,
} from '../../db/schema/sessions';
import { notifySessionsRevoked } from './session-events';
import { pushDevices } from '../../db/schema/push';

/** The device of a new session (ADR 0059); every field may be unknown. */
export interface SessionDeviceValues {
  key: string;
  name: string | null;
  platform: 'ios' | 'android' | 'web' | null;
  model: string | null;
  osVersion: string | null;
}

export async function insertSession(
  db: Db,
  values: {
    userId: string;
    userAgent: string | null;
    now: Date;
    device?: SessionDeviceValues;
    /** ISO 3166-1 alpha-2 country of the sign-in's address; null when unknown. */
    country?: string | null;
  },
): Promise<SessionRow> {
  const [row] = await db
    .insert(sessions)
    .values({
      userId: values.userId,
      userAgent: values.userAgent,
      createdAt: values.now,
      lastUsedAt: values.now,
      deviceKey: values.device?.key ?? null,
      deviceName: values.device?.name ?? null,
      devicePlatform: values.device?.platform ?? null,
      deviceModel: values.device?.model ?? null,
      deviceOsVersion: values.device?.osVersion ?? null,
      country: values.country ?? null,
    })
    .returning();
  if (!row) throw new Error('insert into sessions returned no row');
  return row;
}

/**
 * What the user's sessions so far (ended ones too) say about a device: whether any of them was
 * made with a known device (`device_key`; sessions from before ADR 0059 have none), and whether
 * one was made on this device.
 */
export async function deviceHistory(
  db: Db,
  userId: string,
  deviceKey: string,
): Promise<{ anyKnownDevice: boolean; seenBefore: boolean }> {
  const [row] = await db
    .select({
      anyKnownDevice: sql<boolean>`coalesce(bool_or(${sessions.deviceKey} is not null), false)`,
      seenBefore: sql<boolean>`coalesce(bool_or(${sessions.deviceKey} = ${deviceKey}), false)`,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return { anyKnownDevice: row?.anyKnownDevice ?? false, seenBefore: row?.seenBefore ?? false };
}

/**
 * The user's signed-in sessions: not revoked, and used (signed in or refreshed) since
 * `usedSince` — older ones have no refresh token left that works. Most recently used first.
 */
export async function findActiveSessionsOfUser(
  db: Db,
  userId: string,
  usedSince: Date,
): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.lastUsedAt, usedSince),
      ),
    )
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
}

/** The session if it exists and has not been revoked (one primary-key probe). */
export async function findActiveSession(
  db: Db,
  sessionId: string,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  return row;
}

export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId));
}

export type RevokeReason = NonNullable<SessionRow['revokedReason']>;

/**
 * Ends the active sessions that `where` picks, with every refresh token in them, and announces
 * them (`session_revoked`); their push devices go too. The one way a session ends; answers the
 * ids that ended.
 */
async function endSessions(
  db: Db,
  where: SQL | undefined,
  reason: RevokeReason,
  now: Date,
): Promise<string[]> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(where, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  const ids = ended.map((s) => s.id);
  if (ids.length === 0) return ids;
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(inArray(refreshTokens.sessionId, ids), isNull(refreshTokens.revokedAt)));
  // A device signed out gets no more pushes, nor those already queued for it (ADR 0096).
  await db.delete(pushDevices).where(inArray(pushDevices.sessionId, ids));
  await notifySessionsRevoked(db, ids);
  return ids;
}

/** Ends a session and every refresh token in it. Revoking twice keeps the first time and reason. */
export async function revokeSession(
  db: Db,
  sessionId: string,
  reason: RevokeReason,
  now: Date,
): Promise<void> {
  await endSessions(db, eq(sessions.id, sessionId), reason, now);
}

/**
 * Ends one session of `userId` (signed out from another device). False when the user has no
 * such active session.
 */
export async function revokeSessionOfUser(
  db: Db,
  userId: string,
  sessionId: string,
  reason: RevokeReason,
  now: Date,
): Promise<boolean> {
  const ended = await endSessions(
    db,
    and(eq(sessions.id, sessionId), eq(sessions.userId, userId)),
    reason,
    now,
  );
  return ended.length > 0;
}

/**
 * Ends every active session of a user (a new password), except `keepSessionId` when given (the
 * session that changed it), with their refresh tokens. Returns how many sessions ended.
 */
export async function revokeSessionsOfUser(
  db: Db,
  userId: string,
  reason: RevokeReason,
  now: Date,
  keepSessionId?: string,
): Promise<number> {
  const ended = await endSessions(
    db,
    and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : undefined),
    reason,
    now,
  );
  return ended.length;
}

export async function insertRefreshToken(
  db: Db,
  values: {
    sessionId: string;
    tokenHash: string;
    parentId: string | null;
    expiresAt: Date;
    now: Date;
  },
): Promise<RefreshTokenRow> {
  const [row] = await db
    .insert(refreshTokens)
    .values({
      sessionId: values.sessionId,
      tokenHash: values.tokenHash,
      parentId: values.parentId,
      expiresAt: values.expiresAt,
      createdAt: values.now,
    })
    .returning();
  if (!row) throw new Error('insert into refresh_tokens returned no row');
  return row;
}

/**
 * Marks a refresh token used, atomically, if it is still usable (unused, not revoked, not
 * expired). Returns the row, or undefined when it was not usable. A single conditional UPDATE means
 * two concurrent refreshes with the same token cannot both succeed, on PGlite and PostgreSQL alike.
 */
export async function claimRefreshToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function findRefreshTokenByHash(
  db: Db,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row;
}
