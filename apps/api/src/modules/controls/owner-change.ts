import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { lockLineWithOwner } from '../phone-lines/lines';
import type { SubscriptionService } from '../subscriptions/service';

export interface OwnerChangeDeps {
  db: Db;
  log: FastifyBaseLogger;
  subscriptions: Pick<SubscriptionService, 'readableLine'>;
}

/**
 * Tells the network a barring (`set(barred)`), last in the change's transaction: a refusal is
 * 503 NETWORK_UNAVAILABLE and rolls the change back; if the commit fails afterwards, the network
 * is set back.
 */
export type TellNetwork = (
  set: (barred: boolean) => Promise<void>,
  barred: boolean,
) => Promise<void>;

const notFound = (lineId: string) =>
  new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });

/**
 * An account owner's change of one of the account's numbers — owner controls (ADR 0068) and the
 * roaming cap (ADR 0078) — in one transaction: who may see the number (a stranger 404, another
 * member 403 OWNER_ONLY), the line locked with its owner (404 when cancelled, OWNER_ONLY when
 * the account changed hands meanwhile), then `change`, which tells the network last through
 * `tell`. The network call sets a state, so a retry converges on what the database says.
 */
export async function ownerChangeOfLine<T>(
  deps: OwnerChangeDeps,
  userId: string,
  lineId: string,
  /** For the logs and the refusal: `controls`, `roaming cap`. */
  what: string,
  change: (tx: Db, line: PhoneLineRow, tell: TellNetwork) => Promise<T>,
): Promise<T> {
  if (!isUuid(lineId)) throw notFound(lineId);
  const readable = await deps.subscriptions.readableLine(userId, lineId);
  if (!readable.isOwner)
    throw new AppError('OWNER_ONLY', { detail: `only the account owner changes the ${what}` });
  // What the network was told inside the transaction, to set back if the commit fails.
  let told: { set: (barred: boolean) => Promise<void>; barred: boolean } | null = null;
  try {
    return await deps.db.transaction(async (tx) => {
      const locked = await lockLineWithOwner(tx, lineId);
      if (!locked || locked.line.status === 'cancelled') throw notFound(lineId);
      if (locked.ownerUserId !== userId)
        throw new AppError('OWNER_ONLY', { detail: 'the account changed hands' });
      return change(tx, locked.line, async (set, barred) => {
        try {
          await set(barred);
        } catch (error) {
          throw new AppError('NETWORK_UNAVAILABLE', { cause: error });
        }
        told = { set, barred };
      });
    });
  } catch (error) {
    const done = told as { set: (barred: boolean) => Promise<void>; barred: boolean } | null;
    if (done) {
      deps.log.error({ err: error, lineId }, `${what}: commit failed after the network change`);
      await done
        .set(!done.barred)
        .catch((undo: unknown) =>
          deps.log.error(
            { err: undo, lineId, barred: done.barred },
            `${what}: could not set the network back; the database is the truth`,
          ),
        );
    }
    throw error;
  }
}
