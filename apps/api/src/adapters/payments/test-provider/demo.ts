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
 * payment agreement works like one registered on the card page (they succeed). Kept if present.
 */
export async function insertDemoProviderCards(db: Db, cards: DemoCard[]): Promise<void> {
  if (cards.length === 0) return;
  await db
    .insert(testProviderCards)
    .values(cards.map((card) => ({ ...card, behaviour: 'succeed' })))
    .onConflictDoNothing();
}
