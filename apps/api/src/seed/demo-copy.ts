import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uniqueViolationOf } from '../db/errors';
import { orders } from '../db/schema/orders';
import { numberReservations, phoneLines } from '../db/schema/phone-lines';
import { users } from '../db/schema/users';
import { DEMO_ACCOUNT_IDS } from './demo-accounts';
import type { DemoRemap } from './demo-remap';
import { DEMO_LINE_IDS, DEMO_PHONE_LINES, DEMO_USERS } from './demo-users';
import { seedDemoData } from './seed';

/*
 * A fresh, private copy of the whole demo data set (POST /dev/demo-copy, demo mode only): the
 * same customers, lines, accounts, orders, balances, daily use, agreements, cards, activity log
 * and notifications that seedDemoData inserts, for browser journeys that change the demo and must
 * not see each other's leftovers. The seed writes the copy itself, through a remap that gives it
 * - a fresh random id for every UUID in the rows (also inside JSON and texts, such as links);
 * - a unique e-mail for every demo e-mail (`joannes+c<random>@demo.alda.fo`);
 * - a free number for every demo number (users, lines, orders, and where texts carry it);
 * - a unique test provider card reference for every demo one;
 * the same old value always becoming the same new one within a copy. The catalogue, content,
 * pickup shops and status messages are shared with the demo, not copied.
 */

/** A copy of the demo: its customers, lines and accounts, named as the demo names them. */
export interface DemoCopy {
  users: Record<
    string,
    { id: string; email: string; phoneNumber: string; firstname: string; lastname: string }
  >;
  lines: Record<keyof typeof DEMO_LINE_IDS, { id: string; msisdn: string }>;
  accounts: Record<keyof typeof DEMO_ACCOUNT_IDS, string>;
}

/**
 * Where a copy's numbers come from: 22xxxx–27xxxx, mobile numbers of the provider's range
 * (modules/phone-lines/numbering.ts: 2, 5, 7, 9) that neither the demo (21xxxx, 55xxxx, 77xxxx,
 * 28xxxx) nor the journeys' own new customers (51xxxx, 28xxxx, 29xxxx, 31xxxx ported) use.
 */
const COPY_NUMBERS = { from: 220_000, to: 280_000 } as const;

/** Numbers a copy may take besides the demo's, for a number the seed carries only in a row. */
const SPARE_NUMBERS = 8;

/** Attempts at a copy when another one took a number or reference at the same moment. */
const ATTEMPTS = 3;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A 6-digit number on its own (not part of a longer run of digits, such as an ICCID). */
const NUMBER = '(?<![0-9])[0-9]{6}(?![0-9])';
/** The test provider's card references of the demo's payment agreements. */
const CARD_REFERENCE = 'demo-card-[a-z0-9]+';
/** Keys whose 6-digit value is a phone number even when the demo's list does not name it. */
const NUMBER_KEYS: ReadonlySet<string> = new Set(['msisdn', 'phoneNumber']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every number the demo's customers and lines have (6 digits each). */
function demoNumbers(): string[] {
  return [
    ...new Set([...DEMO_USERS.map((u) => u.phoneNumber), ...DEMO_PHONE_LINES.map((l) => l.msisdn)]),
  ];
}

/** Where a number is taken: lines (of any status), customers, reservations and orders. */
const NUMBER_COLUMNS = [
  [phoneLines, phoneLines.msisdn],
  [users, users.phoneNumber],
  [numberReservations, numberReservations.msisdn],
  [orders, orders.msisdn],
] as const;

/**
 * `count` numbers of {@link COPY_NUMBERS} that no line (of any status: a cancelled one rests in
 * quarantine), customer, reservation or order has.
 */
async function freeNumbers(db: Db, count: number): Promise<string[]> {
  const found = new Set<string>();
  for (let round = 0; round < 10 && found.size < count; round += 1) {
    const candidates = [
      ...new Set(
        Array.from({ length: count * 3 }, () =>
          String(randomInt(COPY_NUMBERS.from, COPY_NUMBERS.to)),
        ),
      ),
    ].filter((n) => !found.has(n));
    const taken = new Set<string>();
    for (const [table, column] of NUMBER_COLUMNS) {
      for (const row of await db
        .select({ n: column })
        .from(table)
        .where(inArray(column, candidates)))
        if (row.n) taken.add(row.n);
    }
    for (const n of candidates) {
      if (found.size < count && !taken.has(n)) found.add(n);
    }
  }
  if (found.size < count) throw new Error('demo copy: no free numbers left');
  return [...found];
}

/**
 * The remap of one copy: fresh ids, e-mails, numbers (from `numbers`, free ones) and card
 * references, each demo value always mapped to the same new one. Walks rows deeply (JSON
 * columns) and rewrites inside strings too; dates and other values stay as they are.
 */
export function createDemoRemap(numbers: readonly string[]): DemoRemap {
  const suffix = randomBytes(4).toString('hex');
  const emails = new Map(
    DEMO_USERS.map((u) => {
      const at = u.email.lastIndexOf('@');
      return [u.email, `${u.email.slice(0, at)}+c${suffix}${u.email.slice(at)}`];
    }),
  );
  const pool = [...numbers];
  const numberMap = new Map<string, string>();
  const takeNumber = (old: string): string => {
    const known = numberMap.get(old);
    if (known) return known;
    const fresh = pool.shift();
    if (!fresh) throw new Error('demo copy: more numbers in the demo than set aside');
    numberMap.set(old, fresh);
    return fresh;
  };
  for (const n of demoNumbers()) takeNumber(n);
  const ids = new Map<string, string>();
  const cards = new Map<string, string>();

  const pattern = new RegExp(
    `(${UUID})|(${[...emails.keys()].map(escape).join('|')})|(${CARD_REFERENCE})|(${NUMBER})`,
    'g',
  );
  const text = (value: string): string =>
    value.replace(pattern, (match, uuid?: string, email?: string, card?: string) => {
      if (uuid) {
        const key = uuid.toLowerCase();
        let fresh = ids.get(key);
        if (!fresh) {
          fresh = randomUUID();
          ids.set(key, fresh);
        }
        return fresh;
      }
      if (email) return emails.get(email) ?? email;
      if (card) {
        let fresh = cards.get(card);
        if (!fresh) {
          fresh = `${card}-c${suffix}`;
          cards.set(card, fresh);
        }
        return fresh;
      }
      return numberMap.get(match) ?? match;
    });

  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      if (key && NUMBER_KEYS.has(key) && /^[0-9]{6}$/.test(value)) takeNumber(value);
      return text(value);
    }
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value !== null && typeof value === 'object' && value.constructor === Object) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };

  return { row: <T>(row: T): T => walk(row) as T };
}

/** The copy's customers, lines and accounts, read through its remap. */
function describeCopy(remap: DemoRemap): DemoCopy {
  const pick = (u: (typeof DEMO_USERS)[number]) =>
    remap.row({
      id: u.id,
      email: u.email,
      phoneNumber: u.phoneNumber,
      firstname: u.firstname,
      lastname: u.lastname,
    });
  const msisdnOf = new Map(DEMO_PHONE_LINES.map((l) => [l.id, l.msisdn]));
  const line = (id: string) => {
    const msisdn = msisdnOf.get(id);
    if (!msisdn) throw new Error(`demo copy: no demo line ${id}`);
    return remap.row({ id, msisdn });
  };
  return {
    users: Object.fromEntries(DEMO_USERS.map((u) => [u.firstname, pick(u)])),
    lines: Object.fromEntries(
      Object.entries(DEMO_LINE_IDS).map(([name, id]) => [name, line(id)]),
    ) as DemoCopy['lines'],
    accounts: Object.fromEntries(
      Object.entries(DEMO_ACCOUNT_IDS).map(([name, id]) => [name, remap.row(id)]),
    ) as DemoCopy['accounts'],
  };
}

/**
 * Inserts a fresh, private copy of the demo data set (above) in one transaction, as of `now`,
 * and answers its customers, lines and accounts. The copies sign in with the demo password.
 * Nothing of an instance's memory (ADR 0057) needs telling: it is all keyed by customers, and
 * the copy's customers are new, so every instance reads them from the database.
 */
export async function copyDemoData(db: Db, now: Date): Promise<DemoCopy> {
  for (let attempt = 1; ; attempt += 1) {
    const remap = createDemoRemap(await freeNumbers(db, demoNumbers().length + SPARE_NUMBERS));
    try {
      await seedDemoData(db, now, remap, { bills: true });
      return describeCopy(remap);
    } catch (error) {
      // Another copy (or a sign-up) took a number between the look-up and the insert: again.
      if (attempt >= ATTEMPTS || uniqueViolationOf(error) === undefined) throw error;
    }
  }
}
