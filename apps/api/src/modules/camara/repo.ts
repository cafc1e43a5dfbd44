import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { partnerCalls } from '../../db/schema/number-protection';
import { phoneLines } from '../../db/schema/phone-lines';

/** The SIM facts of the number's live (not cancelled) line, if the number is ours. */
export async function liveLineSim(db: Db, msisdn: string) {
  const [row] = await db
    .select({
      simChangedAt: phoneLines.simChangedAt,
      activatedAt: phoneLines.activatedAt,
      createdAt: phoneLines.createdAt,
    })
    .from(phoneLines)
    .where(and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')));
  return row;
}

export async function insertCall(
  db: Db,
  values: {
    partnerId: string;
    operation: string;
    msisdn: string | null;
    status: number;
    result: string;
    createdAt: Date;
  },
): Promise<void> {
  await db.insert(partnerCalls).values(values);
}
