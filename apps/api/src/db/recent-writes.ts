/**
 * Keys (user ids, session ids) this process has just written in a transaction, so its in-memory
 * facts about them may be behind for a moment (docs/decisions/0057-instance-memory.md).
 *
 * An instance learns of a change from the NOTIFY sent in the change's transaction, and that
 * NOTIFY reaches it a few milliseconds after the commit. A customer whose own request made the
 * change must still see it on their very next request (read your writes), so a write marks its
 * keys here while its transaction is open, and readers of the in-memory facts go to the
 * database for a marked key until the mark runs out. A mark is never cleared early: a rolled-back
 * transaction sends no NOTIFY, and a cleared mark would be the one thing that could make an
 * instance trust a fact it has not heard about yet.
 *
 * One registry per process: several app instances in one process (tests) share it, which only
 * sends them to the database more often, never less.
 */
export interface RecentWrites {
  /** Marks keys written now; they count as recent for the window. */
  mark(keys: Iterable<string>): void;
  /** True while a key's mark lasts. */
  has(key: string): boolean;
}

/** Long enough for any NOTIFY to arrive after its commit; short enough to cost nothing. */
export const RECENT_WRITE_WINDOW_MS = 3_000;

export function createRecentWrites(
  windowMs = RECENT_WRITE_WINDOW_MS,
  clock: () => number = () => performance.now(),
): RecentWrites {
  const until = new Map<string, number>();
  let nextPrune = 0;

  function prune(at: number) {
    if (at < nextPrune) return;
    nextPrune = at + windowMs;
    for (const [key, end] of until) if (end <= at) until.delete(key);
  }

  return {
    mark(keys) {
      const at = clock();
      prune(at);
      for (const key of keys) until.set(key, at + windowMs);
    },
    has(key) {
      if (until.size === 0) return false;
      const end = until.get(key);
      if (end === undefined) return false;
      if (end > clock()) return true;
      until.delete(key);
      return false;
    },
  };
}

/** The process's registry (see above). */
export const recentWrites: RecentWrites = createRecentWrites();
