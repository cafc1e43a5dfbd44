import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { testProviderCards } from '../../../db/schema/test-provider';

export interface DemoCard {
  /** The agreement's `provider_reference`. */
  id: string;
  brand: string;
  last4: string;
  expiry: string;
}

/**
 * The demo customers' cards on file as the test provider knows them, so charging a seeded
 * payment agreement works like one registered on the card page (they succeed). Kept if present;
 * with `all` (a private copy of the demo, whose references are new) every card must be inserted,
 * or it throws.
 */
export async function insertDemoProviderCards(
  db: Db,
  cards: DemoCard[],
  options: { all?: boolean } = {},
): Promise<void> {
  if (cards.length === 0) return;
  const values = cards.map((card) => ({ ...card, behaviour: 'succeed' }));
  if (options.all) {
    const inserted = await db
      .insert(testProviderCards)
      .values(values)
      .returning({ one: sql<number>`1` });
    if (inserted.length !== cards.length) {
      throw new Error(
        `demo copy: ${inserted.length} of ${cards.length} test provider cards written`,
      );
    }
    return;
  }
  await db.insert(testProviderCards).values(values).onConflictDoNothing();
}
