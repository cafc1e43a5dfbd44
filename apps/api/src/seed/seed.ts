import { supportSavedReplies } from '../db/schema/support';
import { demoSavedReplies } from './demo-saved-replies';
import type { Db } from '../db/client';
import { contentPages } from '../db/schema/content-pages';
import { notifications } from '../db/schema/data-transfers';
import { phoneLines } from '../db/schema/phone-lines';
import { statusMessages, type NewStatusMessageRow } from '../db/schema/status-messages';
import { users as usersTable } from '../db/schema/users';
import { hashPassword } from '../modules/auth/passwords';
import { CONTENT_PAGES } from './content';
import { simPickupLocations } from '../db/schema/provisioning';
import { SIM_PICKUP_LOCATIONS } from './pickup-locations';
import { seedDemoAccounts } from './demo-accounts';
import { seedDemoBills } from './demo-bills';
import { demoNotifications } from './demo-notifications';
import { insertDemoRows, type DemoRemap } from './demo-remap';
import { DEMO_PASSWORD, DEMO_PHONE_LINES, DEMO_USERS } from './demo-users';
import { insertMissing } from './insert';
import { numberPriceClasses } from '../db/schema/number-picker';
import { DEMO_NUMBER_PRICES } from './number-prices';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Data every installation needs, demo or not: the terms and privacy pages and the SIM pickup
 * shops. Missing rows are inserted; existing ones are never overwritten. Safe to run at every
 * start.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await insertMissing(db, contentPages, CONTENT_PAGES);
  await insertMissing(db, simPickupLocations, SIM_PICKUP_LOCATIONS);
}

/** True when nobody has an account yet: the moment the demo seed is allowed to run. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  return (await db.$count(usersTable)) === 0;
}

/** Status messages of the demo, active around `now` so the native shell has something to show. */
export function demoStatusMessages(now: Date): NewStatusMessageRow[] {
  return [
    {
      id: '0b7c9e1e-5a1a-4c1e-8f00-5ea7a0000001',
      titleFo: 'Vælkomin í nýggju Alda-appina',
      titleEn: 'Welcome to the new Alda app',
      bodyFo:
        'Nú kanst tú síggja dátunýtslu, keypa eykapakkar og umsita familjuhaldið – alt á einum staði.',
      bodyEn:
        'You can now see your data use, buy extra packages and manage your family plan – all in one place.',
      activeFrom: new Date(now.getTime() - DAY_MS),
      activeTo: new Date(now.getTime() + 60 * DAY_MS),
    },
    {
      id: '0b7c9e1e-5a1a-4c1e-8f00-5ea7a0000002',
      titleFo: 'Ætlað viðlíkahald í Suðuroy',
      titleEn: 'Planned maintenance in Suðuroy',
      bodyFo:
        'Vit dagføra netið í Suðuroy eina nátt í komandi viku millum kl. 01 og 04. Tú kanst uppliva stutt avbrot.',
      bodyEn:
        'We are upgrading the network in Suðuroy one night next week between 01:00 and 04:00. You may notice short interruptions.',
      activeFrom: new Date(now.getTime() - HOUR_MS),
      activeTo: new Date(now.getTime() + 8 * DAY_MS),
    },
  ];
}

let demoHash: Promise<string> | undefined;

/**
 * One argon2id hash of the public demo password, shared by every demo customer and made once
 * per process: hashing is deliberately slow, and the demo seed runs in every API test file.
 */
function demoPasswordHash(): Promise<string> {
  demoHash ??= hashPassword(DEMO_PASSWORD);
  return demoHash;
}

/** What the demo seed writes beyond the customers' present. */
export interface DemoSeedOptions {
  /**
   * The last two months' payments, receipts, use and bills (demo-bills.ts), so the running demo
   * and its copies have bills to show. Off for tests that count the seed's payments, receipts
   * and orders as they were before bills existed.
   */
  bills?: boolean;
}

/**
 * The demo data set: the customers of demo-users.ts (password `Demo1234!`), their phone lines
 * (two still processing), the plan catalogue, accounts, orders, balances, payment agreements
 * and activity log (demo-accounts.ts), and status messages. Fixed ids and insert-if-missing make
 * it idempotent. Returns how many customers and lines were new.
 *
 * With a `remap` (demo-copy.ts) it writes a private copy of the customers' part instead, in the
 * same one transaction: every row through the remap and every one inserted, without the shared
 * reference data (catalogue, status messages).
 */
export async function seedDemoData(
  db: Db,
  now: Date = new Date(),
  remap?: DemoRemap,
  options: DemoSeedOptions = {},
): Promise<{ usersCreated: number; linesCreated: number }> {
  const passwordHash = await demoPasswordHash();
  const users = DEMO_USERS.map(({ role: _role, ...user }) => ({ ...user, passwordHash }));
  return db.transaction(async (tx) => {
    const usersCreated = await insertDemoRows(tx, usersTable, users, remap);
    const linesCreated = await insertDemoRows(
      tx,
      phoneLines,
      DEMO_PHONE_LINES.map((line) => ({ ...line, createdAt: now, statusChangedAt: now })),
      remap,
    );
    await seedDemoAccounts(tx, now, remap);
    if (!remap) await insertMissing(tx, statusMessages, demoStatusMessages(now));
    if (!remap) await insertMissing(tx, numberPriceClasses, DEMO_NUMBER_PRICES);
    if (!remap) await insertMissing(tx, supportSavedReplies, demoSavedReplies(now));
    await insertDemoRows(tx, notifications, demoNotifications(now), remap);
    if (options.bills) await seedDemoBills(tx, now, remap);
    return { usersCreated, linesCreated };
  });
}
