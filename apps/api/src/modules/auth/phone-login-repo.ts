import { and, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { phoneLoginCodes, type PhoneLoginCodeRow } from '../../db/schema/auth-codes';

/** What a code is for: phone login, or confirming a sign-out of other devices (ADR 0059). */
export type CodePurpose = PhoneLoginCodeRow['purpose'];

/**
 * Stores a new code for the number and purpose, replacing the previous one — but only if the previous one
 * was issued at or before `replaceIssuedBefore` (the resend countdown) or has already been used
 * to sign in. One statement, so two requests racing on two API instances cannot both send a
 * code. Undefined: too soon.
 */
export async function issueCode(
  db: Db,
  values: {
    msisdn: string;
    purpose: CodePurpose;
    userId: string;
    codeHash: string;
    now: Date;
    expiresAt: Date;
    replaceIssuedBefore: Date;
  },
): Promise<PhoneLoginCodeRow | undefined> {
  const fresh = {
    userId: values.userId,
    codeHash: values.codeHash,
    createdAt: values.now,
    expiresAt: values.expiresAt,
    attempts: 0,
    consumedAt: null,
  };
  const [row] = await db
    .insert(phoneLoginCodes)
    .values({ msisdn: values.msisdn, purpose: values.purpose, ...fresh })
    .onConflictDoUpdate({
      target: [phoneLoginCodes.msisdn, phoneLoginCodes.purpose],
      set: fresh,
      setWhere: or(
        lte(phoneLoginCodes.createdAt, values.replaceIssuedBefore),
        isNotNull(phoneLoginCodes.consumedAt),
      ),
    })
    .returning();
  return row;
}

export async function findCode(
  db: Db,
  msisdn: string,
  purpose: CodePurpose,
): Promise<PhoneLoginCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(phoneLoginCodes)
    .where(and(eq(phoneLoginCodes.msisdn, msisdn), eq(phoneLoginCodes.purpose, purpose)));
  return row;
}

/**
 * One try of a code, atomically: if the number has a live code (unused, unexpired, fewer than
 * `maxAttempts` tries) its try count goes up, and it is consumed when the hash matches.
 * Undefined when there is no live code. Concurrent tries are serialised by the row lock, so
 * no more than `maxAttempts` can ever be made against one code.
 */
export async function attemptCode(
  db: Db,
  values: {
    msisdn: string;
    purpose: CodePurpose;
    codeHash: string;
    now: Date;
    maxAttempts: number;
  },
): Promise<{ userId: string; attempts: number; consumed: boolean } | undefined> {
  const [row] = await db
    .update(phoneLoginCodes)
    .set({
      attempts: sql`${phoneLoginCodes.attempts} + 1`,
      consumedAt: sql`case when ${phoneLoginCodes.codeHash} = ${values.codeHash} then ${values.now.toISOString()}::timestamptz else null end`,
    })
    .where(
      and(
        eq(phoneLoginCodes.msisdn, values.msisdn),
        eq(phoneLoginCodes.purpose, values.purpose),
        isNull(phoneLoginCodes.consumedAt),
        gt(phoneLoginCodes.expiresAt, values.now),
        lt(phoneLoginCodes.attempts, values.maxAttempts),
      ),
    )
    .returning({
      userId: phoneLoginCodes.userId,
      attempts: phoneLoginCodes.attempts,
      consumedAt: phoneLoginCodes.consumedAt,
    });
  return row && { userId: row.userId, attempts: row.attempts, consumed: row.consumedAt !== null };
}

/** Takes a code back that never reached the customer (the SMS failed), so a resend is not blocked. */
export async function withdrawCode(
  db: Db,
  msisdn: string,
  purpose: CodePurpose,
  codeHash: string,
): Promise<void> {
  await db
    .delete(phoneLoginCodes)
    .where(
      and(
        eq(phoneLoginCodes.msisdn, msisdn),
        eq(phoneLoginCodes.purpose, purpose),
        eq(phoneLoginCodes.codeHash, codeHash),
      ),
    );
}
