import type { FastifyBaseLogger } from 'fastify';
import { isOwnersOwnLine } from '@alda/contract/rules/controls';
import type { LineControls, UpdateLineControlsRequest } from '@alda/contract/schemas/controls';
import { barringKey, type NetworkAdapter } from '../../adapters/network/network';
import type { Db } from '../../db/client';
import type { NewNotificationRow } from '../../db/schema/data-transfers';
import { AppError } from '../../errors';
import { insertNotifications } from '../notifications/notify';
import { toLineControls, type SubscriptionService } from '../subscriptions/service';
import { bumpUserVersions } from '../versions/change-versions';
import { findViewersOfLines } from '../subscriptions/accounts';
import { ownerChangeOfLine } from './owner-change';
import { updateLineControls } from './repo';

export interface ControlsServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  network: NetworkAdapter;
  subscriptions: Pick<SubscriptionService, 'readableLine'>;
}

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
  const { now, network } = deps;

  return {
    set(userId: string, lineId: string, input: UpdateLineControlsRequest): Promise<LineControls> {
      const at = now();
      return ownerChangeOfLine(deps, userId, lineId, 'controls', async (tx, line, tell) => {
        if (isOwnersOwnLine(line, userId))
          throw new AppError('CONTROLS_OWN_LINE', { detail: `line ${lineId} is the owner's` });
        if (line.status !== 'active')
          throw new AppError('ORDER_PROCESSING', { detail: `line ${lineId} is being set up` });

        const wasPaused = line.dataPausedAt !== null;
        const pause = input.dataPaused ?? wasPaused;
        const approval = input.purchaseApproval ?? line.purchaseApproval;
        if (pause === wasPaused && approval === line.purchaseApproval) return toLineControls(line);

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
        if (pause !== wasPaused)
          await tell(
            (barred, tx) =>
              network.setDataBarred(line.msisdn, barred, {
                key: barringKey(line.id, 'data', barred),
                tx,
              }),
            pause,
          );
        return toLineControls(updated);
      });
    },
  };
}

export type ControlsService = ReturnType<typeof createControlsService>;
