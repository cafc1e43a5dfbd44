import { and, eq } from 'drizzle-orm';
import type { Passkey, PasskeyCreationOptions } from '@alda/contract/schemas/passkeys';
import {
  STAFF_ROLES,
  type StaffPasskeyCreateRequest,
  type StaffRole,
  type StaffRolePolicy,
  type StaffRolePolicyUpdate,
} from '@alda/contract/schemas/staff';
import type { Db } from '../../db/client';
import { passkeys } from '../../db/schema/passkeys';
import { AppError } from '../../errors';
import type { StaffCaller } from '../../plugins/staff-auth';
import { dummyPasswordHash, verifyPassword } from '../auth/passwords';
import { recordAudit } from '../operator/audit';
import { browserOf } from '@alda/contract/format/browser';
import { passkeyDto, type PasskeyServiceDeps } from '../passkeys/service';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import {
  listRolePolicies,
  passkeyRequired,
  passkeysOfStaff,
  roleMemberCounts,
  upsertRolePolicy,
} from './passkeys-repo';
import { findStaffById, revokeAllSessions } from './repo';
import type { StaffActor } from './service';

/*
 * Staff passkeys (ADR 0097), the second factor beside TOTP: a staff member adds their own (the
 * password again, then the answer of `navigator.credentials.create()` to a challenge bound to
 * their session), lists and deletes them; an admin sees and revokes anyone's (with a reason; the
 * member's sessions end) and decides per role whether passkeys are required. Every change is in
 * the audit log, written in the change's transaction. The sign-in itself is service.ts's.
 */

export interface StaffPasskeyServiceDeps {
  db: Db;
  now: () => Date;
  /** The passkeys' relying party (ADR 0097), shared with the customers' passkeys. */
  rp: PasskeyServiceDeps['rp'];
  limiter: RateLimiter;
}

/**
 * A passkey's default name from the browser that made it ("Chrome, Windows"), when the console
 * sends none: the list must tell one desk's passkey from another's.
 */
export function passkeyNameOf(userAgent: string | null): string {
  const ua = userAgent ?? '';
  const browser = browserOf(ua);
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /Linux|X11/.test(ua)
            ? 'Linux'
            : null;
  return [browser, system].filter(Boolean).join(', ') || 'Passkey';
}

export function createStaffPasskeyService(deps: StaffPasskeyServiceDeps) {
  const { db, now, rp } = deps;

  /** Every role's rule, in STAFF_ROLES' order, with its members' counts. */
  async function policiesOf(executor: Db): Promise<StaffRolePolicy[]> {
    // One after the other: `executor` may be a transaction (one connection).
    const policies = await listRolePolicies(executor);
    const counts = await roleMemberCounts(executor);
    return STAFF_ROLES.map((role) => {
      const row = policies.find((p) => p.role === role);
      const count = counts.get(role);
      return {
        role,
        requirePasskey: row?.requirePasskey ?? false,
        members: count?.members ?? 0,
        membersWithoutPasskey: count?.withoutPasskey ?? 0,
        updatedAt: row?.updatedAt.toISOString() ?? null,
      };
    });
  }

  async function policyOf(executor: Db, role: StaffRole): Promise<StaffRolePolicy> {
    const found = (await policiesOf(executor)).find((p) => p.role === role);
    if (!found) throw new AppError('NOT_FOUND', { detail: `role ${role}` });
    return found;
  }

  return {
    /** The signed-in member's passkeys, newest first. */
    async list(who: StaffCaller): Promise<Passkey[]> {
      return (await passkeysOfStaff(db, who.id)).map(passkeyDto);
    },

    /**
     * Options to make a passkey, after the password again: wrong is 422 PASSWORD_INCORRECT,
     * counted with the account's sign-in failures (a stolen session cannot guess it for long);
     * right takes its attempt back. The challenge is bound to this session.
     */
    async registrationOptions(
      who: StaffCaller,
      password: string,
      meta: { ip: string },
    ): Promise<PasskeyCreationOptions> {
      const permit = await deps.limiter.consume([
        { policy: POLICIES.loginIpAccount, subject: ['staff', meta.ip, who.email] },
        { policy: POLICIES.loginAccount, subject: ['staff', who.email] },
        { policy: POLICIES.currentPassword, subject: ['staff', who.id] },
      ]);
      const staff = await findStaffById(db, who.id);
      const ok = await verifyPassword(staff?.passwordHash ?? (await dummyPasswordHash()), password);
      if (!staff || !ok) throw new AppError('PASSWORD_INCORRECT', { field: 'password' });
      await permit.refund();
      return rp.registrationOptions(
        db,
        // What the authenticator's list shows: the address they sign in with, and their name.
        { id: staff.id, name: staff.email, displayName: staff.name },
        await passkeysOfStaff(db, staff.id),
        'staff_register',
        { staffSessionId: who.sessionId },
      );
    },

    /** Stores a new passkey answered to this session's challenge. */
    async create(
      who: StaffCaller,
      request: StaffPasskeyCreateRequest,
      userAgent: string | null,
    ): Promise<Passkey> {
      const at = now();
      return db.transaction(async (tx) => {
        const verified = await rp.verifyRegistration(tx, request.response, 'staff_register', {
          staffSessionId: who.sessionId,
        });
        const name = request.name?.trim() || passkeyNameOf(userAgent);
        const [row] = await tx
          .insert(passkeys)
          .values({ ...verified, staffUserId: who.id, name, createdAt: at })
          .returning();
        if (!row) throw new Error('passkeys insert returned no row');
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.id,
          kind: 'change',
          action: 'staff.passkey.create',
          targetType: 'staff',
          targetId: who.id,
          details: { passkeyId: row.id, name, backedUp: row.backedUp },
          at,
        });
        return passkeyDto(row);
      });
    },

    /**
     * Deletes one of the signed-in member's passkeys. Not the last one while their role requires
     * passkeys (409 STAFF_ACTION_NOT_ALLOWED): they could not sign in again.
     */
    async remove(who: StaffCaller, id: string): Promise<void> {
      const at = now();
      await db.transaction(async (tx) => {
        const own = await passkeysOfStaff(tx, who.id, true);
        const row = own.find((p) => p.id === id);
        if (!row) throw new AppError('PASSKEY_NOT_FOUND');
        if (own.length === 1 && (await passkeyRequired(tx, who.role))) {
          throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
            detail: 'the role requires a passkey: the last one stays',
          });
        }
        await tx.delete(passkeys).where(eq(passkeys.id, row.id));
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.id,
          kind: 'change',
          action: 'staff.passkey.delete',
          targetType: 'staff',
          targetId: who.id,
          details: { passkeyId: row.id, name: row.name },
          at,
        });
      });
    },

    /** A staff member's passkeys (admin); 404 NOT_FOUND for no such member. */
    async listOf(staffUserId: string): Promise<Passkey[]> {
      if (!(await findStaffById(db, staffUserId)))
        throw new AppError('NOT_FOUND', { detail: 'staff account' });
      return (await passkeysOfStaff(db, staffUserId)).map(passkeyDto);
    },

    /**
     * An admin revokes another member's passkey (a lost laptop): deleted, and the member's
     * sessions end — one may have been signed in with it. Not one's own (409; the member's own
     * list deletes those, without ending the session at hand).
     */
    async revoke(
      staffUserId: string,
      passkeyId: string,
      reason: string,
      by: StaffActor,
    ): Promise<void> {
      if (by.staffUserId === staffUserId) {
        throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
          detail: 'revoke your own passkeys under your own passkeys',
        });
      }
      const at = now();
      await db.transaction(async (tx) => {
        if (!(await findStaffById(tx, staffUserId)))
          throw new AppError('NOT_FOUND', { detail: 'staff account' });
        const [row] = await tx
          .select()
          .from(passkeys)
          .where(and(eq(passkeys.id, passkeyId), eq(passkeys.staffUserId, staffUserId)))
          .for('update');
        if (!row) throw new AppError('PASSKEY_NOT_FOUND');
        await tx.delete(passkeys).where(eq(passkeys.id, row.id));
        const sessions = await revokeAllSessions(tx, staffUserId, at);
        await recordAudit(tx, {
          actor: by.actor,
          staffUserId: by.staffUserId,
          kind: 'change',
          action: 'staff.passkey.revoke',
          targetType: 'staff',
          targetId: staffUserId,
          reason,
          details: { passkeyId: row.id, name: row.name, sessions },
          at,
        });
      });
    },

    /** Every role's passkey rule with its active members and those without a passkey. */
    async rolePolicies(): Promise<StaffRolePolicy[]> {
      return policiesOf(db);
    },

    /**
     * Requires passkeys of a role's members, or stops requiring them. Sessions live now go on (a
     * member can add a passkey in one); their next TOTP sign-in is refused. An admin without a
     * passkey cannot require them of admins (409 STAFF_ACTION_NOT_ALLOWED: they would lock
     * themselves out).
     */
    async setRolePolicy(
      role: StaffRole,
      change: StaffRolePolicyUpdate,
      by: StaffActor & { role?: StaffRole },
    ): Promise<StaffRolePolicy> {
      const at = now();
      return db.transaction(async (tx) => {
        if (change.requirePasskey && by.staffUserId && by.role === role) {
          const own = await passkeysOfStaff(tx, by.staffUserId);
          if (own.length === 0) {
            throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
              detail: 'add a passkey of your own before requiring them of your role',
            });
          }
        }
        const before = await policyOf(tx, role);
        await upsertRolePolicy(tx, role, change.requirePasskey, at);
        await recordAudit(tx, {
          actor: by.actor,
          staffUserId: by.staffUserId,
          kind: 'change',
          action: 'staff.role_policy',
          targetType: 'staff_role',
          targetId: role,
          reason: change.reason,
          details: {
            requirePasskey: change.requirePasskey,
            from: { requirePasskey: before.requirePasskey },
            members: before.members,
            membersWithoutPasskey: before.membersWithoutPasskey,
          },
          at,
        });
        return policyOf(tx, role);
      });
    },
  };
}

export type StaffPasskeyService = ReturnType<typeof createStaffPasskeyService>;
