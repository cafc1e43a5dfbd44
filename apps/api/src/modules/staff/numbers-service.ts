import type {
  StaffNumberRelease,
  StaffNumbersPage,
  StaffNumbersQuery,
} from '@alda/contract/schemas/staff-numbers';
import type { Db } from '../../db/client';
import type { StaffCaller } from '../../plugins/staff-auth';
import { recordAudit } from '../operator/audit';
import type { NumberInventory } from '../phone-lines/inventory-service';

/*
 * The staff console's number inventory (issue 31, docs/decisions/0075-staff-console.md). Roles
 * `support` and `provisioning` (and `admin`). The rules — what is free, what rests in quarantine
 * and what a release ends — are the phone-lines module's (inventory-service.ts), the same the
 * customer's number search uses; this adds who did it and why.
 *
 * Reading the inventory is not audited: it shows numbers, line states and a customer id, no
 * personal data. A release is a change: the `number_releases` row and the audit entry
 * `number.release` are written in one transaction.
 */

export interface StaffNumbersServiceDeps {
  db: Db;
  now: () => Date;
  inventory: NumberInventory;
}

export function createStaffNumbersService({ db, now, inventory }: StaffNumbersServiceDeps) {
  return {
    list(query: StaffNumbersQuery): Promise<StaffNumbersPage> {
      return inventory.list(query);
    },

    /** Lets `msisdn` out of quarantine now, with the staff member's reason, audited. */
    release(msisdn: string, reason: string, who: StaffCaller): Promise<StaffNumberRelease> {
      return db.transaction(async (tx) => {
        const release = await inventory.release(tx, msisdn, { releasedBy: who.actor, reason });
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.id,
          kind: 'change',
          action: 'number.release',
          targetType: 'number',
          targetId: msisdn,
          reason,
          details: { cancelledAt: release.cancelledAt, releaseId: release.id },
          at: now(),
        });
        return release;
      });
    },
  };
}

export type StaffNumbersService = ReturnType<typeof createStaffNumbersService>;
