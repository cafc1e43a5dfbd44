import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passwordResetTokens, type PasswordResetTokenRow } from '../../db/schema/auth-codes';

export async function insertResetToken(
  db: Db,
  values: { userId: string; tokenHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(passwordResetTokens).values({
    userId: values.userId,
    tokenHash: values.tokenHash,
    createdAt: values.now,
    expiresAt: values.expiresAt,
  });
}

const usable = (tokenHash: string, now: Date) =>
  and(
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );

/** The token if it is unused and unexpired (a read; {@link claimResetToken} spends it). */
export async function findUsableResetToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<PasswordResetTokenRow | undefined> {
  const [row] = await db.select().from(passwordResetTokens).where(usable(tokenHash, now));
  return row;
}

/** Spends the token if it is still usable, atomically; of two concurrent uses one wins. */
export async function claimResetToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<PasswordResetTokenRow | undefined> {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(usable(tokenHash, now))
    .returning();
  return row;
}

/** Spends every unused token of the user (a new password makes older links pointless). */
export async function spendResetTokensOfUser(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
