import { placeOfPostCode } from '@alda/contract/localities/lookup';
import type { User } from '@alda/contract/schemas/auth';
import type { UpdateUserRequest } from '@alda/contract/schemas/profile';
import type { Db } from '../../db/client';
import { foreignKeyViolationOf, uniqueViolationOf } from '../../db/errors';
import { AppError } from '../../errors';
import { findUsersSharingAccountsWith } from '../subscriptions/accounts';
import { bumpUserVersions } from '../versions/change-versions';
import { toUserDto } from './dto';
import { countSubscriptionsOfUser, deleteUser, releaseKeptRecords, lockUser } from './repo';
import { findUserByEmail, updateUser, type UserChanges } from './records';

export interface UserServiceDeps {
  db: Db;
}

/** The signed-in customer's own user: edit and delete (SPEC §2 /min-brukari, §6). */
export function createUserService(deps: UserServiceDeps) {
  const { db } = deps;
  const emailTaken = () => new AppError('EMAIL_ALREADY_REGISTERED', { field: 'email' });

  return {
    /**
     * Changes the fields that were sent. The city is stored as the locality list spells it; an
     * e-mail address of another user is refused with 409 EMAIL_ALREADY_REGISTERED.
     */
    async update(userId: string, patch: UpdateUserRequest): Promise<User> {
      const changes: UserChanges = {};
      if (patch.firstname !== undefined) changes.firstname = patch.firstname;
      if (patch.lastname !== undefined) changes.lastname = patch.lastname;
      if (patch.address !== undefined) changes.address = patch.address;
      if (patch.locale !== undefined) changes.locale = patch.locale;
      if (patch.showInPhoneBook !== undefined) changes.showInPhoneBook = patch.showInPhoneBook;
      const alerts = patch.usageAlerts;
      if (alerts?.at80 !== undefined) changes.usageAlert80 = alerts.at80;
      if (alerts?.at100 !== undefined) changes.usageAlert100 = alerts.at100;
      if (alerts?.email !== undefined) changes.usageAlertEmail = alerts.email;
      if (patch.postCode !== undefined && patch.city !== undefined) {
        const place = placeOfPostCode(patch.postCode, patch.city);
        // The schema checked this already; a changed locality list is the only way here.
        if (!place) {
          throw new AppError('VALIDATION_FAILED', {
            field: 'city',
            validationKey: 'CITY_POSTCODE_MISMATCH',
          });
        }
        changes.postCode = patch.postCode;
        changes.city = place.name;
      }
      if (patch.email !== undefined) {
        const owner = await findUserByEmail(db, patch.email);
        if (owner && owner.id !== userId) throw emailTaken();
        changes.email = patch.email;
      }
      try {
        const row = await db.transaction(async (tx) => {
          const updated = await updateUser(tx, userId, changes);
          // Names and phone-book choices show in the subscriptions of everyone on the same
          // accounts; their in-memory answers must end (ADR 0057).
          if (updated) await bumpUserVersions(tx, await findUsersSharingAccountsWith(tx, userId));
          return updated;
        });
        if (!row) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
        return toUserDto(row);
      } catch (error) {
        if (uniqueViolationOf(error) === 'users_email_unique') throw emailTaken();
        throw error;
      }
    },

    /**
     * Deletes the user with their sessions, tokens, reservations, accounts, orders,
     * notifications and activity log, in one transaction — refused with 409
     * HAS_ACTIVE_SUBSCRIPTION while they own an account that is not cancelled or have a
     * subscription line in service or being set up (SPEC §6: only after cancelling, once the
     * cancellation has taken effect; ADR 0056). Talutíð numbers do not block it: they are kept as
     * anonymous prepaid numbers. Lines (number history, quarantine) and receipts (bookkeeping)
     * stay, without the user.
     */
    async delete(userId: string): Promise<void> {
      try {
        await db.transaction(async (tx) => {
          const user = await lockUser(tx, userId);
          if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
          if ((await countSubscriptionsOfUser(tx, userId)) > 0) {
            throw new AppError('HAS_ACTIVE_SUBSCRIPTION');
          }
          await releaseKeptRecords(tx, userId);
          await deleteUser(tx, userId);
        });
      } catch (error) {
        // Subscription records (accounts, orders) that must outlive a user refuse the delete.
        const constraint = foreignKeyViolationOf(error);
        if (constraint !== undefined) {
          throw new AppError('HAS_ACTIVE_SUBSCRIPTION', {
            detail: `still referenced: ${constraint}`,
            cause: error,
          });
        }
        throw error;
      }
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
