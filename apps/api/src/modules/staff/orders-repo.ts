import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { phoneLines, type PhoneLineStatus } from '../../db/schema/phone-lines';

/* The staff orders area's own reads (the rules are the operator and provisioning services'). */

/** An order's line as the order view shows it: its number and status. */
export async function findLineOfOrder(
  db: Db,
  lineId: string,
): Promise<{ id: string; msisdn: string; status: PhoneLineStatus } | undefined> {
  const [row] = await db
    .select({ id: phoneLines.id, msisdn: phoneLines.msisdn, status: phoneLines.status })
    .from(phoneLines)
    .where(eq(phoneLines.id, lineId));
  return row;
}
