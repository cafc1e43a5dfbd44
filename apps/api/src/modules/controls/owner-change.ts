import type { FastifyBaseLogger } from 'fastify';
import { NetworkPendingError } from '../../adapters/network/network';
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
 * Tells the network a barring (`set(barred, tx)`), last in the change's transaction: a refusal is
 * 503 NETWORK_UNAVAILABLE and rolls the change back; if the commit fails afterwards, the network
 * is set back (`set(!barred, undefined)`, outside any transaction). `tx` is the change's
 * transaction for the network adapter's own records (network.ts `NetworkCall`).
 */
export type TellNetwork = (
  set: (barred: boolean, tx: Db | undefined) => Promise<void>,
  barred: boolean,
) => Promise<void>;

type Told = { set: (barred: boolean, tx: Db | undefined) => Promise<void>; barred: boolean };

const notFound = (lineId: string) =>
  new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });

/**
 * An account owner's change of one of the account's numbers — owner controls (ADR 0068) and the
 * roaming cap (ADR 0078) — in one transaction: who may see the number (a stranger 404, another
 * member 403 OWNER_ONLY), the line locked with its owner (404 when cancelled, OWNER_ONLY when
 * the account changed hands meanwhile), then `change`, which tells the network last through
 * `tell`. The network call sets a state, so a retry converges on what the database says.
 *
 * A network that has not finished within its time (TMF641: the order still in progress after
 * TMF641_WAIT_S) is a refusal too; as it may still carry the change out later, it is set back
 * like after a failed commit, so the network ends where the database is.
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
  let told: Told | null = null;
  try {
    return await deps.db.transaction(async (tx) => {
      const locked = await lockLineWithOwner(tx, lineId);
      if (!locked || locked.line.status === 'cancelled') throw notFound(lineId);
      if (locked.ownerUserId !== userId)
        throw new AppError('OWNER_ONLY', { detail: 'the account changed hands' });
      return change(tx, locked.line, async (set, barred) => {
        try {
          await set(barred, tx);
        } catch (error) {
          // Not finished in time: it may still happen, so it is set back below.
          if (error instanceof NetworkPendingError) told = { set, barred };
          throw new AppError('NETWORK_UNAVAILABLE', { cause: error });
        }
        told = { set, barred };
      });
    });
  } catch (error) {
    const done = told as Told | null;
    if (done) {
      const late =
        error instanceof AppError && error.cause instanceof NetworkPendingError
          ? error.cause
          : null;
      if (late)
        deps.log.warn(
          { lineId, key: late.key, state: late.state },
          `${what}: the network did not finish the change in time; refused and set back`,
        );
      else
        deps.log.error({ err: error, lineId }, `${what}: commit failed after the network change`);
      await done
        .set(!done.barred, undefined)
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
