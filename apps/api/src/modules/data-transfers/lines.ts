import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  lineCustomerId,
  lineEuAllowanceMb,
  lineIsPrepaid,
  linePlanJoin,
} from '../../db/line-facts';
import { accounts } from '../../db/schema/accounts';
import { plans } from '../../db/schema/catalog';
import { phoneLines } from '../../db/schema/phone-lines';
import { users } from '../../db/schema/users';

// Lines as data moves see them (owner, plan allowances); public so payments can name and credit a line the same way.

/** A line as data transfers need it: who it belongs to and what its plan allows. */
export interface TransferLine {
  lineId: string;
  msisdn: string;
  status: 'active' | 'processing' | 'cancelled';
  isPrepaid: boolean;
  /** The line's user, or the account owner for a line without a user of its own. */
  customerId: string | null;
  firstname: string | null;
  lastname: string | null;
  showInPhoneBook: boolean | null;
  /** The plan's monthly data (first balance of a month), null without a plan. */
  dataMb: number | null;
  euAllowanceMb: number | null;
  /** The plan's monthly give allowance (SPEC §3 givenData.max). */
  giftMaxMb: number | null;
}

function selectLines(db: Db) {
  return db
    .select({
      lineId: phoneLines.id,
      msisdn: phoneLines.msisdn,
      status: phoneLines.status,
      isPrepaid: lineIsPrepaid(),
      customerId: lineCustomerId(),
      firstname: users.firstname,
      lastname: users.lastname,
      // The number's own phone-book setting, else its user's (SPEC §1, per number).
      showInPhoneBook: sql<
        boolean | null
      >`coalesce(${phoneLines.phoneBookVisible}, ${users.showInPhoneBook})`,
      dataMb: plans.dataMb,
      euAllowanceMb: lineEuAllowanceMb(),
      giftMaxMb: plans.giftMaxMb,
    })
    .from(phoneLines)
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, linePlanJoin())
    .leftJoin(users, eq(users.id, lineCustomerId()))
    .$dynamic();
}

/** The line that is not cancelled with this number. */
export async function findLineByMsisdn(db: Db, msisdn: string): Promise<TransferLine | undefined> {
  const [row] = await selectLines(db).where(
    and(eq(phoneLines.msisdn, msisdn), ne(phoneLines.status, 'cancelled')),
  );
  return row;
}

export async function findLinesByIds(db: Db, ids: readonly string[]): Promise<TransferLine[]> {
  if (ids.length === 0) return [];
  return selectLines(db).where(inArray(phoneLines.id, [...new Set(ids)]));
}
