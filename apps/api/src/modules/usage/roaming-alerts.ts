import { faroeMonth } from '@alda/contract/format/date';
import { roamingCapPath } from '@alda/contract/app-paths';
import { ROAMING_CAP_THRESHOLDS, roamingCapThreshold } from '@alda/contract/rules/roaming';
import type { Db } from '../../db/client';
import { roamingCapAlerts } from '../../db/schema/balances';
import type { NewNotificationRow, NotificationParams } from '../../db/schema/data-transfers';
import { insertNotifications } from '../notifications/notify';
import { bumpUserVersions } from '../versions/change-versions';
import { findAlertRecipients, highestRaised } from './alerts';

/*
 * Roaming cap notifications (issue 33 §2, docs/decisions/0078-roaming-spend-cap.md): at 80 % and
 * at 100 % of a number's cap its user and the account owner are told in the app, the number gets
 * an SMS, and whoever chose e-mail alerts gets an e-mail — once per threshold and cap per
 * Faroese month, in the transaction that books the usage. Unlike the data alerts they cannot be
 * switched off: they announce charges and a stop, which the EU roaming rules require be told.
 */

/** A line's roaming month after a batch, as the notifications need it. */
export interface RoamingCapState {
  lineId: string;
  periodStart: Date;
  capOere: number | null;
  chargedOere: number;
}

/** A message to send once the transaction that raised it has committed. */
export interface RoamingCapMessage {
  /** Whose language the text is in (and, for an e-mail, whose address it goes to). */
  userId: string;
  params: NotificationParams;
  /** An SMS to this number (6 digits); without, an e-mail to the user. */
  smsTo?: string;
}

/**
 * Records the cap thresholds the lines' charges have reached and that were not told this month
 * for this cap (the primary key decides, so a retried batch or two feeds at once tell once),
 * writes the notifications and bumps the readers' change versions. When 80 and 100 are reached
 * at once only 100 is told. Answers the SMS and e-mails to send after the commit.
 */
export async function raiseRoamingCapAlerts(
  tx: Db,
  states: readonly RoamingCapState[],
  at: Date,
): Promise<RoamingCapMessage[]> {
  const candidates = states.flatMap((state) => {
    const reached = roamingCapThreshold(state.chargedOere, state.capOere);
    if (reached === null || state.capOere === null) return [];
    const capOere = state.capOere;
    return ROAMING_CAP_THRESHOLDS.filter((t) => t <= reached).map((threshold) => ({
      lineId: state.lineId,
      month: faroeMonth(state.periodStart),
      capOere,
      threshold,
      raisedAt: at,
      chargedOere: state.chargedOere,
    }));
  });
  if (candidates.length === 0) return [];
  const raised = await tx
    .insert(roamingCapAlerts)
    .values(candidates.map(({ chargedOere: _c, ...row }) => row))
    .onConflictDoNothing()
    .returning({ lineId: roamingCapAlerts.lineId, threshold: roamingCapAlerts.threshold });
  const told = highestRaised(candidates, raised, (c) => c.lineId);
  if (told.size === 0) return [];

  const people = await findAlertRecipients(tx, [...told.keys()]);
  const notifications: NewNotificationRow[] = [];
  const messages: RoamingCapMessage[] = [];
  for (const alert of told.values()) {
    const readers = people.filter((p) => p.lineId === alert.lineId);
    for (const person of readers) {
      const params: NotificationParams = {
        phoneNumber: person.msisdn,
        name: person.ownLine ? null : person.lineName,
        threshold: alert.threshold,
        chargedOere: alert.chargedOere,
        capOere: alert.capOere,
        canRaise: person.isOwner,
      };
      notifications.push({
        userId: person.userId,
        type: 'roaming_cap',
        params,
        link: person.isOwner ? roamingCapPath(alert.lineId) : '/',
        createdAt: at,
      });
      if (person.email) messages.push({ userId: person.userId, params });
    }
    // One SMS to the number itself, worded for whoever uses it (its user, else the owner).
    const user = readers.find((p) => p.ownLine) ?? readers[0];
    if (user) {
      messages.push({
        userId: user.userId,
        params: {
          phoneNumber: user.msisdn,
          name: null,
          threshold: alert.threshold,
          chargedOere: alert.chargedOere,
          capOere: alert.capOere,
          // A child's number without a login: whoever holds the phone asks the owner.
          canRaise: user.ownLine && user.isOwner,
        },
        smsTo: user.msisdn,
      });
    }
  }
  await insertNotifications(tx, notifications);
  await bumpUserVersions(
    tx,
    notifications.map((n) => n.userId),
  );
  return messages;
}
