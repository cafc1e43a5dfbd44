import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
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
      isPrepaid: sql<boolean>`(${phoneLines.isPrepaid} or coalesce(${accounts.type} = 'prepaid', false))`,
      customerId: sql<string | null>`coalesce(${phoneLines.userId}, ${accounts.ownerUserId})`,
      firstname: users.firstname,
      lastname: users.lastname,
      showInPhoneBook: users.showInPhoneBook,
      dataMb: plans.dataMb,
      euAllowanceMb: sql<
        number | null
      >`case when ${accounts.euPackage} then ${plans.euPackageDataMb} else null end`,
      giftMaxMb: plans.giftMaxMb,
    })
    .from(phoneLines)
    .leftJoin(accounts, eq(phoneLines.accountId, accounts.id))
    .leftJoin(plans, eq(plans.id, sql`coalesce(${phoneLines.planId}, ${accounts.planId})`))
    .leftJoin(users, eq(users.id, sql`coalesce(${phoneLines.userId}, ${accounts.ownerUserId})`))
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
