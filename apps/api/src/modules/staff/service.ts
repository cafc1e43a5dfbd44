import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type {
  AuthenticationResponse,
  PasskeyRequestOptions,
} from '@alda/contract/schemas/passkeys';
import {
  STAFF_SESSION_IDLE_S,
  STAFF_SESSION_MAX_S,
  type StaffAccount,
  type StaffCreateRequest,
  type StaffEnrolment,
  type StaffMember,
  type StaffPasswordStep,
  type StaffSession,
  type StaffSignInRequest,
  type StaffUpdateRequest,
} from '@alda/contract/schemas/staff';
import type { Db } from '../../db/client';
import type { StaffCaller } from '../../plugins/staff-auth';
import type { StaffSessionRow, StaffUserRow } from '../../db/schema/staff';
import type { PasskeyRow } from '../../db/schema/passkeys';
import { AppError } from '../../errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../auth/passwords';
import { recordAudit } from '../operator/audit';
import { userHandleText, type PasskeyServiceDeps } from '../passkeys/service';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import {
  claimTotpStep,
  findStaffByEmail,
  findStaffById,
  insertSession,
  insertStaff,
  listStaff,
  replaceRecoveryCodes,
  revokeAllSessions,
  revokeSessionByToken,
  spendRecoveryCode,
  touchLiveSession,
  updateStaff,
} from './repo';
import {
  claimTotpAllowance,
  lockStaffCredential,
  passkeyCountsOfStaff,
  passkeyRequired,
  passkeysOfStaff,
} from './passkeys-repo';
import {
  decryptSecret,
  encryptSecret,
  newRecoveryCodes,
  newSessionToken,
  newStaffPassword,
  sha256,
} from './secrets';

/*
 * Staff accounts and sign-in (docs/decisions/0075-staff-console.md; ASVS V2/V3 level 2 for
 * privileged users): e-mail + password (argon2id) + TOTP (RFC 6238, otplib) in one call; a code's
 * time step is accepted once per account; recovery codes are single use; sessions are opaque
 * tokens, 15 minutes idle and 8 hours at most; failed sign-ins are limited as for customers.
 *
 * A passkey (ADR 0097) is the other second factor: the password first (POST
 * /api/staff/auth/passkey-options answers a challenge for that member's passkeys), then the
 * password again with the passkey's answer. A role can require it (staff_role_policies): its
 * members' TOTP and recovery codes are then refused, unless the command line's break-glass
 * (`staff allow-totp`, staff_users.totp_allowed_until) lets one TOTP sign-in through.
 */

export interface StaffServiceDeps {
  db: Db;
  now: () => Date;
  limiter: RateLimiter;
  /** AES-256 key for TOTP secrets at rest (deriveKey(JWT_SECRET, 'staff-totp')). */
  totpKey: Uint8Array;
  /** Shown in authenticator apps: the issuer of the otpauth:// URI. */
  issuer?: string;
  /** The passkeys' relying party (ADR 0097), shared with the customers' passkeys. */
  rp: PasskeyServiceDeps['rp'];
}

/** How long `staff allow-totp` lets a member of a passkey-only role in with TOTP (once). */
export const TOTP_ALLOWANCE_S = 60 * 60;

/** Who acts on staff accounts: a console admin or the operator command line. */
export interface StaffActor {
  actor: string;
  staffUserId: string | null;
}

const TOTP_PERIOD_S = 30;

export function normalizeStaffEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function staffMemberDto(row: StaffUserRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The password step of both sign-ins counts against these limits (ADR 0021, subject `staff`). */
function signInChecks(email: string, ip: string) {
  return [
    { policy: POLICIES.loginIpAccount, subject: ['staff', ip, email] },
    { policy: POLICIES.loginAccount, subject: ['staff', email] },
    { policy: POLICIES.loginIp, subject: ['staff', ip] },
  ];
}

function principal(staff: StaffUserRow, session: StaffSessionRow): StaffCaller {
  const idle = new Date(session.lastSeenAt.getTime() + STAFF_SESSION_IDLE_S * 1000);
  return {
    id: staff.id,
    email: staff.email,
    name: staff.name,
    role: staff.role,
    createdAt: staff.createdAt,
    actor: `staff:${staff.email}`,
    sessionId: session.id,
    idleExpiresAt: idle < session.expiresAt ? idle : session.expiresAt,
    expiresAt: session.expiresAt,
  };
}

export function createStaffService(deps: StaffServiceDeps) {
  const { db, now, rp } = deps;
  const issuer = deps.issuer ?? 'Alda';

  /** Whether the code is the account's current TOTP code, not used before (or a recovery code). */
  async function secondFactorOk(
    tx: Db,
    staff: StaffUserRow,
    code: string,
    at: Date,
  ): Promise<boolean> {
    if (code.includes('-')) {
      return spendRecoveryCode(tx, staff.id, sha256(code.toLowerCase()), at);
    }
    const secret = decryptSecret(deps.totpKey, staff.totpSecretEnc);
    const result = await verifyTotp({
      secret,
      token: code,
      epoch: Math.floor(at.getTime() / 1000),
      // One step either side: a phone's clock a little off, or a code typed as it turned.
      epochTolerance: TOTP_PERIOD_S,
    });
    if (!result.valid || !('timeStep' in result)) return false;
    return claimTotpStep(tx, staff.id, result.timeStep);
  }

  /**
   * The TOTP path of a member whose role requires passkeys: refused (STAFF_PASSKEY_REQUIRED,
   * before the code is looked at, so nothing is spent) unless the break-glass is open. Answers
   * whether the sign-in uses the break-glass (taken once the code is right).
   */
  async function totpAllowed(tx: Db, staff: StaffUserRow, at: Date): Promise<boolean> {
    if (!(await passkeyRequired(tx, staff.role))) return false;
    if (staff.totpAllowedUntil && staff.totpAllowedUntil > at) return true;
    throw new AppError('STAFF_PASSKEY_REQUIRED', { detail: `role ${staff.role}` });
  }

  /**
   * A passkey as the second factor: it must be one of this member's (another member's, a
   * customer's or an unknown one is 401 PASSKEY_NOT_RECOGNISED), locked while its answer to a
   * challenge of this member's passkey-options is checked and its counter stored.
   */
  async function passkeyOk(
    tx: Db,
    staff: StaffUserRow,
    response: AuthenticationResponse,
  ): Promise<PasskeyRow> {
    const row = await lockStaffCredential(tx, staff.id, response.id);
    if (!row)
      throw new AppError('PASSKEY_NOT_RECOGNISED', { detail: 'not a passkey of this member' });
    const handle = response.response.userHandle;
    if (handle !== undefined && handle !== '' && handle !== userHandleText(staff.id)) {
      throw new AppError('PASSKEY_NOT_RECOGNISED', { detail: "another member's user handle" });
    }
    return rp.verifyAuthentication(tx, response, row, 'staff_sign_in', { staffUserId: staff.id });
  }

  async function enrolSecrets(tx: Db, staff: StaffUserRow, secret: string) {
    const recoveryCodes = newRecoveryCodes();
    await replaceRecoveryCodes(
      tx,
      staff.id,
      recoveryCodes.map((code) => sha256(code)),
    );
    return {
      totpSecret: secret,
      otpauthUri: generateURI({ issuer, label: staff.email, secret }),
      recoveryCodes,
    };
  }

  return {
    async signIn(
      request: StaffSignInRequest,
      meta: { ip: string; userAgent: string | null },
    ): Promise<StaffSession> {
      const email = normalizeStaffEmail(request.email);
      const checks = signInChecks(email, meta.ip);
      const permit = await deps.limiter.consume(checks);
      const staff = await findStaffByEmail(db, email);
      const passwordOk = await verifyPassword(
        staff?.passwordHash ?? (await dummyPasswordHash()),
        request.password,
      );
      const at = now();
      const token = newSessionToken();
      const session = await db.transaction(async (tx) => {
        if (!staff || staff.disabledAt || !passwordOk) return null;
        let details: Record<string, unknown> | null;
        if ('passkey' in request) {
          const used = await passkeyOk(tx, staff, request.passkey);
          details = { passkey: true, passkeyId: used.id };
        } else {
          const breakGlass = await totpAllowed(tx, staff, at);
          if (!(await secondFactorOk(tx, staff, request.totpCode, at))) return null;
          // Taken once: a second sign-in racing for it is refused, its code's step rolled back.
          if (breakGlass && !(await claimTotpAllowance(tx, staff.id, at))) {
            throw new AppError('STAFF_PASSKEY_REQUIRED', { detail: 'break-glass used meanwhile' });
          }
          details = {
            ...(request.totpCode.includes('-') ? { recoveryCode: true } : {}),
            ...(breakGlass ? { totpAllowed: true } : {}),
          };
          if (Object.keys(details).length === 0) details = null;
        }
        const created = await insertSession(tx, {
          staffUserId: staff.id,
          tokenHash: sha256(token),
          createdAt: at,
          lastSeenAt: at,
          expiresAt: new Date(at.getTime() + STAFF_SESSION_MAX_S * 1000),
          userAgent: meta.userAgent,
        });
        await recordAudit(tx, {
          actor: `staff:${staff.email}`,
          staffUserId: staff.id,
          kind: 'change',
          action: 'staff.sign_in',
          targetType: 'staff',
          targetId: staff.id,
          details,
          at,
        });
        return created;
      });
      if (!staff || !session) {
        throw new AppError('STAFF_SIGN_IN_FAILED', {
          detail: !staff
            ? 'unknown e-mail'
            : staff.disabledAt
              ? 'disabled'
              : !passwordOk
                ? 'wrong password'
                : 'wrong or used code',
        });
      }
      await permit.refund();
      await deps.limiter.reset(checks.slice(0, 1));
      const who = principal(staff, session);
      return {
        token,
        idleExpiresAt: who.idleExpiresAt.toISOString(),
        expiresAt: who.expiresAt.toISOString(),
        staff: staffMemberDto(staff),
      };
    },

    /**
     * The first step of a passkey sign-in: the password, checked and limited as at sign-in (any
     * failure 401 STAFF_SIGN_IN_FAILED after the same work), then a challenge for this member's
     * passkeys, bound to them. A right password takes its attempt back; a member without a
     * passkey is 404 PASSKEY_NOT_FOUND (they sign in with the code and add one).
     */
    async passkeyOptions(
      request: StaffPasswordStep,
      meta: { ip: string },
    ): Promise<PasskeyRequestOptions> {
      const email = normalizeStaffEmail(request.email);
      const permit = await deps.limiter.consume(signInChecks(email, meta.ip));
      const staff = await findStaffByEmail(db, email);
      const passwordOk = await verifyPassword(
        staff?.passwordHash ?? (await dummyPasswordHash()),
        request.password,
      );
      if (!staff || staff.disabledAt || !passwordOk) {
        throw new AppError('STAFF_SIGN_IN_FAILED', {
          detail: !staff ? 'unknown e-mail' : staff.disabledAt ? 'disabled' : 'wrong password',
        });
      }
      await permit.refund();
      const own = await passkeysOfStaff(db, staff.id);
      if (own.length === 0) throw new AppError('PASSKEY_NOT_FOUND', { detail: 'no passkey yet' });
      return rp.authenticationOptions(db, own, 'staff_sign_in', { staffUserId: staff.id });
    },

    /**
     * The staff member of a bearer token, else null. The session's idle clock restarts unless
     * `background`: a screen's own refresh is not the staff member at the desk (an unattended
     * console must still sign itself out after 15 minutes).
     */
    async authenticate(token: string, background = false): Promise<StaffCaller | null> {
      if (!token.startsWith('alda_staff_')) return null;
      const at = now();
      const live = await touchLiveSession(
        db,
        sha256(token),
        at,
        new Date(at.getTime() - STAFF_SESSION_IDLE_S * 1000),
        !background,
      );
      return live ? principal(live.staff, live.session) : null;
    },

    async signOut(token: string): Promise<void> {
      await revokeSessionByToken(db, sha256(token), now());
    },

    async signOutEverywhere(who: StaffCaller): Promise<void> {
      const at = now();
      await db.transaction(async (tx) => {
        const count = await revokeAllSessions(tx, who.id, at);
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.id,
          kind: 'change',
          action: 'staff.sign_out_everywhere',
          targetType: 'staff',
          targetId: who.id,
          details: { sessions: count },
          at,
        });
      });
    },

    /** Every staff account, with how many passkeys each has. */
    async list(): Promise<StaffAccount[]> {
      const [rows, counts] = await Promise.all([listStaff(db), passkeyCountsOfStaff(db)]);
      return rows.map((row) => ({ ...staffMemberDto(row), passkeys: counts.get(row.id) ?? 0 }));
    },

    /**
     * A new staff account with its first password (given, or made here), a TOTP secret and ten
     * recovery codes, all shown once (the console draws the otpauth:// URI as a QR code).
     */
    async create(
      input: StaffCreateRequest & {
        password?: string;
        /** The demo seed's public secrets only; otherwise a new random secret. */
        totpSecret?: string;
      },
      by: StaffActor,
    ): Promise<StaffEnrolment> {
      const email = normalizeStaffEmail(input.email);
      const password = input.password ?? newStaffPassword();
      const passwordHash = await hashPassword(password);
      const secret = input.totpSecret ?? generateSecret();
      const at = now();
      return db.transaction(async (tx) => {
        const row = await insertStaff(tx, {
          email,
          name: input.name.trim(),
          role: input.role,
          passwordHash,
          totpSecretEnc: encryptSecret(deps.totpKey, secret),
          createdAt: at,
        });
        if (!row) throw new AppError('STAFF_EXISTS', { detail: email });
        const secrets = await enrolSecrets(tx, row, secret);
        await recordAudit(tx, {
          actor: by.actor,
          staffUserId: by.staffUserId,
          kind: 'change',
          action: 'staff.create',
          targetType: 'staff',
          targetId: row.id,
          details: { email, role: input.role },
          at,
        });
        return {
          staff: staffMemberDto(row),
          password: input.password ? null : password,
          ...secrets,
        };
      });
    },

    /** Role change or disable/enable; the account's sessions end with either (its rights changed). */
    async update(id: string, change: StaffUpdateRequest, by: StaffActor): Promise<StaffMember> {
      const at = now();
      return db.transaction(async (tx) => {
        const current = await findStaffById(tx, id);
        if (!current) throw new AppError('NOT_FOUND', { detail: 'staff account' });
        if (
          by.staffUserId === id &&
          (change.disabled || (change.role && change.role !== 'admin'))
        ) {
          throw new AppError('STAFF_ACTION_NOT_ALLOWED', {
            detail: 'an admin cannot lock themselves out',
          });
        }
        const row = await updateStaff(tx, id, {
          ...(change.role ? { role: change.role } : {}),
          ...(change.disabled === undefined ? {} : { disabledAt: change.disabled ? at : null }),
        });
        if (!row) throw new AppError('NOT_FOUND', { detail: 'staff account' });
        await revokeAllSessions(tx, id, at);
        await recordAudit(tx, {
          actor: by.actor,
          staffUserId: by.staffUserId,
          kind: 'change',
          action: 'staff.update',
          targetType: 'staff',
          targetId: id,
          reason: change.reason,
          details: {
            from: { role: current.role, disabled: current.disabledAt !== null },
            role: change.role,
            disabled: change.disabled,
          },
          at,
        });
        return staffMemberDto(row);
      });
    },

    /** A new TOTP secret and recovery codes for an account (a lost phone); its sessions end. */
    async reenrol(id: string, reason: string, by: StaffActor): Promise<StaffEnrolment> {
      const at = now();
      const secret = generateSecret();
      return db.transaction(async (tx) => {
        const row = await updateStaff(tx, id, {
          totpSecretEnc: encryptSecret(deps.totpKey, secret),
          totpLastStep: null,
        });
        if (!row) throw new AppError('NOT_FOUND', { detail: 'staff account' });
        await revokeAllSessions(tx, id, at);
        const secrets = await enrolSecrets(tx, row, secret);
        await recordAudit(tx, {
          actor: by.actor,
          staffUserId: by.staffUserId,
          kind: 'change',
          action: 'staff.reenrol',
          targetType: 'staff',
          targetId: id,
          reason,
          at,
        });
        return { staff: staffMemberDto(row), password: null, ...secrets };
      });
    },

    /**
     * The break-glass of `npm run operator -- staff allow-totp` (ADR 0097): for the next hour, one
     * sign-in with a TOTP or recovery code is let through although the member's role requires
     * passkeys — to enrol a new passkey after losing the last one.
     */
    async allowTotp(
      id: string,
      reason: string,
      by: StaffActor,
    ): Promise<{ staff: StaffMember; until: Date; requirePasskey: boolean }> {
      const at = now();
      const until = new Date(at.getTime() + TOTP_ALLOWANCE_S * 1000);
      return db.transaction(async (tx) => {
        const row = await updateStaff(tx, id, { totpAllowedUntil: until });
        if (!row) throw new AppError('NOT_FOUND', { detail: 'staff account' });
        const requirePasskey = await passkeyRequired(tx, row.role);
        await recordAudit(tx, {
          actor: by.actor,
          staffUserId: by.staffUserId,
          kind: 'change',
          action: 'staff.allow_totp',
          targetType: 'staff',
          targetId: id,
          reason,
          details: { until: until.toISOString(), role: row.role, requirePasskey },
          at,
        });
        return { staff: staffMemberDto(row), until, requirePasskey };
      });
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
