import type { FastifyBaseLogger } from 'fastify';
import {
  capChangeNeedsConfirmation,
  capReached,
  effectiveRoamingCap,
  roamingCapOf,
  type RoamingSettings,
} from '@alda/contract/rules/roaming';
import type { RoamingCap, UpdateRoamingCapRequest } from '@alda/contract/schemas/roaming';
import { barringKey, type NetworkAdapter } from '../../adapters/network/network';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { findViewersOfLines } from '../subscriptions/accounts';
import type { SubscriptionService } from '../subscriptions/service';
import { lockBalances } from '../usage/balance-rows';
import { bumpUserVersions } from '../versions/change-versions';
import { ownerChangeOfLine } from '../controls/owner-change';
import { setRoamingCap, setRoamingStopped } from './repo';

export interface RoamingCapServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  network: NetworkAdapter;
  subscriptions: Pick<SubscriptionService, 'readableLine'>;
  settings: RoamingSettings;
}

/**
 * The account owner sets a number's roaming spend cap (issue 33 §2,
 * docs/decisions/0078-roaming-spend-cap.md): raises it, lowers it or turns it off. Raising it or
 * turning it off needs the confirmation that names the risk (`capChangeNeedsConfirmation`).
 *
 * The line and its balance are locked (the usage feed rates under the same balance lock, so a
 * batch sees the cap before or after, never half). When the change lets a stopped number roam
 * again — or stops one whose cap was lowered to what is already charged — the network is told
 * last, inside the transaction, as the owner controls do (ADR 0068): a refusal rolls everything
 * back (503 NETWORK_UNAVAILABLE); a commit that fails after it sets the network back.
 */
export function createRoamingCapService(deps: RoamingCapServiceDeps) {
  const { now, network, settings } = deps;

  return {
    set(userId: string, lineId: string, input: UpdateRoamingCapRequest): Promise<RoamingCap> {
      const at = now();
      return ownerChangeOfLine(deps, userId, lineId, 'roaming cap', async (tx, line, tell) => {
        const [balance] = await lockBalances(tx, [lineId]);

        const current = effectiveRoamingCap(line, settings.defaultCapOere);
        const next = input.capOere;
        if (capChangeNeedsConfirmation(current, next) && !input.confirmed)
          throw new AppError('ROAMING_CAP_CONFIRMATION_REQUIRED', {
            detail: `cap ${String(current)} → ${String(next)} without confirmation`,
          });
        const setting = {
          // Turning the cap off keeps the amount, so turning it on again brings it back.
          roamingCapOere: next ?? line.roamingCapOere,
          roamingCapOff: next === null,
        };
        if (
          setting.roamingCapOere === line.roamingCapOere &&
          setting.roamingCapOff === line.roamingCapOff
        )
          return roamingCapOf(line, balance, settings);
        await setRoamingCap(tx, lineId, setting);

        let month = balance;
        if (balance) {
          const wasStopped = balance.roamingStoppedAt !== null;
          const stop = capReached(balance.roamingChargedOere, next);
          if (wasStopped !== stop)
            month = { ...balance, ...(await setRoamingStopped(tx, lineId, stop ? at : null)) };
        }
        // Everyone who sees the number (ADR 0057: cached subscriptions answers end).
        await bumpUserVersions(tx, await findViewersOfLines(tx, [lineId]));
        const barred = (month?.roamingStoppedAt ?? null) !== null;
        if (balance && barred !== (balance.roamingStoppedAt !== null))
          await tell(
            (value, tx) =>
              network.setRoamingDataBarred(line.msisdn, value, {
                key: barringKey(line.id, 'roaming', value),
                tx,
              }),
            barred,
          );
        return roamingCapOf(setting, month, settings);
      });
    },
  };
}

export type RoamingCapService = ReturnType<typeof createRoamingCapService>;
