import type { FastifyBaseLogger } from 'fastify';
import { isOwnersOwnLine } from '@alda/contract/rules/controls';
import type { LineControls, UpdateLineControlsRequest } from '@alda/contract/schemas/controls';
import type { NetworkAdapter } from '../../adapters/network/network';
import type { Db } from '../../db/client';
import type { NewNotificationRow } from '../../db/schema/data-transfers';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { insertNotifications } from '../notifications/notify';
import { toLineControls, type SubscriptionService } from '../subscriptions/service';
import { bumpUserVersions } from '../versions/change-versions';
import { findViewersOfLines } from '../subscriptions/accounts';
import { lockLineWithOwner } from '../phone-lines/lines';
import { updateLineControls } from './repo';

export interface ControlsServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  network: NetworkAdapter;
  subscriptions: Pick<SubscriptionService, 'readableLine'>;
}

const notFound = (lineId: string) =>
  new AppError('NOT_FOUND', { field: 'id', detail: `no line ${lineId}` });

/**
 * Owner controls per member (issue 16.3, docs/decisions/0068-owner-controls.md): the account
 * owner pauses and resumes a member's mobile data and switches approval of the member's
 * extra-package purchases on and off.
 *
 * Pausing is written and carried out in one transaction: the line is locked, the new state,
 * the member's notification and the change versions are written, and the network is told last,
 * still inside the transaction. If the network refuses, everything rolls back (503
 * NETWORK_UNAVAILABLE, nothing changed anywhere). If the commit fails after the network took
 * the change, the network is set back (compensation); the network call sets a state, so any
 * retry converges on what the database says.
 */
export function createControlsService(deps: ControlsServiceDeps) {
  const { db, now, log, network, subscriptions } = deps;

  return {
    async set(
      userId: string,
      lineId: string,
      input: UpdateLineControlsRequest,
    ): Promise<LineControls> {
      if (!isUuid(lineId)) throw notFound(lineId);
      // Who may see the number at all: a stranger 404, another member 403 OWNER_ONLY.
      const readable = await subscriptions.readableLine(userId, lineId);
      if (!readable.isOwner)
        throw new AppError('OWNER_ONLY', { detail: 'only the account owner sets controls' });
      const at = now();
      // What the network was told inside the transaction, to set back if the commit fails.
      let told: { msisdn: string; barred: boolean } | null = null;
      try {
        return await db.transaction(async (tx) => {
          const locked = await lockLineWithOwner(tx, lineId);
          if (!locked || locked.line.status === 'cancelled') throw notFound(lineId);
          const { line, ownerUserId } = locked;
          if (ownerUserId !== userId)
            throw new AppError('OWNER_ONLY', { detail: 'the account changed hands' });
          if (isOwnersOwnLine(line, ownerUserId))
            throw new AppError('CONTROLS_OWN_LINE', { detail: `line ${lineId} is the owner's` });
          if (line.status !== 'active')
            throw new AppError('ORDER_PROCESSING', { detail: `line ${lineId} is being set up` });

          const wasPaused = line.dataPausedAt !== null;
          const pause = input.dataPaused ?? wasPaused;
          const approval = input.purchaseApproval ?? line.purchaseApproval;
          if (pause === wasPaused && approval === line.purchaseApproval)
            return toLineControls(line);

          const updated = await updateLineControls(tx, lineId, {
            dataPausedAt: pause === wasPaused ? line.dataPausedAt : pause ? at : null,
            purchaseApproval: approval,
          });
          const notifications: NewNotificationRow[] = [];
          if (pause !== wasPaused && line.userId)
            notifications.push({
              userId: line.userId,
              type: pause ? 'data_paused' : 'data_resumed',
              params: { phoneNumber: line.msisdn },
              link: '/',
              createdAt: at,
            });
          await insertNotifications(tx, notifications);
          // Everyone who sees the number in GET /api/subscriptions (ADR 0057).
          await bumpUserVersions(tx, await findViewersOfLines(tx, [lineId]));
          // The network last: a refusal rolls all of the above back.
          if (pause !== wasPaused) {
            try {
              await network.setDataBarred(line.msisdn, pause);
            } catch (error) {
              throw new AppError('NETWORK_UNAVAILABLE', { cause: error });
            }
            told = { msisdn: line.msisdn, barred: pause };
          }
          return toLineControls(updated);
        });
      } catch (error) {
        const done = told as { msisdn: string; barred: boolean } | null;
        if (done) {
          // The network took the change but the commit failed: set it back.
          log.error({ err: error, lineId }, 'controls: commit failed after the network change');
          await network
            .setDataBarred(done.msisdn, !done.barred)
            .catch((undo: unknown) =>
              log.error(
                { err: undo, lineId, barred: done.barred },
                'controls: could not set the network back; the database is the truth',
              ),
            );
        }
        throw error;
      }
    },
  };
}

export type ControlsService = ReturnType<typeof createControlsService>;
