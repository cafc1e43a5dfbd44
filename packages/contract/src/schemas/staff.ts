import { z } from 'zod/mini';
import {
  authenticationResponse,
  passkey,
  passkeyCreationOptions,
  passkeyName,
  passkeyRequestOptions,
  registrationResponse,
} from './passkeys';

/*
 * The staff side (docs/decisions/0075-staff-console.md): staff accounts, sign-in with password
 * and TOTP, sessions and the audit log. The console (apps/console) and the API (`/api/staff/*`)
 * share these shapes; each area of the console has its own file beside this one
 * (`staff-<area>.ts`).
 */

/**
 * What a staff member may do (issue 31):
 * - `support`: read customers (with a reason), resend messages, handle port corrections;
 * - `provisioning`: orders — advance, complete, fail, retry;
 * - `content`: status messages, terms and privacy;
 * - `admin`: staff accounts and roles; may also do everything the others may.
 */
export const STAFF_ROLES = ['support', 'provisioning', 'content', 'admin'] as const;
export const staffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRole>;

/** Idle and absolute limits of a staff session (ASVS V3 level 2 for privileged users). */
export const STAFF_SESSION_IDLE_S = 15 * 60;
export const STAFF_SESSION_MAX_S = 8 * 60 * 60;

/** A reason given for reading personal data or changing something: a ticket or call reference. */
export const staffReason = z.string().check(z.trim(), z.minLength(3), z.maxLength(500));

/** RFC 6238 code: six digits; or a recovery code `xxxxx-xxxxx` (letters and digits). */
export const totpCode = z
  .string()
  .check(z.trim(), z.regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, 'totp'));

const staffEmail = z.email().check(z.maxLength(254));
const staffPassword = z.string().check(z.minLength(1), z.maxLength(200));

/** The first step of either sign-in: e-mail and password (and of POST /auth/passkey-options). */
export const staffPasswordStep = z.object({ email: staffEmail, password: staffPassword });
export type StaffPasswordStep = z.infer<typeof staffPasswordStep>;

/** POST /api/staff/auth/sign-in with the authenticator app's code (or a recovery code). */
export const staffTotpSignInRequest = z.strictObject({
  email: staffEmail,
  password: staffPassword,
  totpCode,
});
export type StaffTotpSignInRequest = z.infer<typeof staffTotpSignInRequest>;

/**
 * POST /api/staff/auth/sign-in with a passkey (ADR 0097): the answer of
 * `navigator.credentials.get()` to the challenge of POST /api/staff/auth/passkey-options.
 */
export const staffPasskeySignInRequest = z.strictObject({
  email: staffEmail,
  password: staffPassword,
  passkey: authenticationResponse,
});
export type StaffPasskeySignInRequest = z.infer<typeof staffPasskeySignInRequest>;

/**
 * POST /api/staff/auth/sign-in: e-mail and password with exactly one second factor — `totpCode`
 * or `passkey` (both, or neither, is 400).
 */
export const staffSignInRequest = z.union([staffTotpSignInRequest, staffPasskeySignInRequest]);
export type StaffSignInRequest = z.infer<typeof staffSignInRequest>;

/** POST /api/staff/auth/passkey-options: request options for the member's own passkeys. */
export const staffPasskeyOptions = z.object({ options: passkeyRequestOptions });
export type StaffPasskeyOptions = z.infer<typeof staffPasskeyOptions>;

export const staffMember = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  /** Null while the account may sign in. */
  disabledAt: z.nullable(z.iso.datetime({ offset: true })),
  createdAt: z.iso.datetime({ offset: true }),
});
export type StaffMember = z.infer<typeof staffMember>;

/**
 * The answer of sign-in: an opaque bearer token for `/api/staff/*` (never a customer JWT, and
 * useless on customer routes), the idle and absolute expiry, and who signed in.
 */
export const staffSession = z.object({
  token: z.string(),
  idleExpiresAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
  staff: staffMember,
});
export type StaffSession = z.infer<typeof staffSession>;

/** GET /api/staff/auth/me: the signed-in staff member and their session's limits. */
export const staffMe = z.object({
  staff: staffMember,
  idleExpiresAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type StaffMe = z.infer<typeof staffMe>;

/** POST /api/staff/accounts (admin): a new staff member. */
export const staffCreateRequest = z.object({
  email: z.email().check(z.maxLength(254)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  role: staffRole,
});
export type StaffCreateRequest = z.infer<typeof staffCreateRequest>;

/**
 * What a new account (or a re-enrolment) shows once: the first password, the TOTP secret and its
 * `otpauth://` URI (the console draws it as a QR code), and ten single-use recovery codes.
 */
export const staffEnrolment = z.object({
  staff: staffMember,
  password: z.nullable(z.string()),
  totpSecret: z.string(),
  otpauthUri: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type StaffEnrolment = z.infer<typeof staffEnrolment>;

/** PATCH /api/staff/accounts/:id (admin): change the role or disable / enable. */
export const staffUpdateRequest = z
  .object({
    role: z.optional(staffRole),
    disabled: z.optional(z.boolean()),
    reason: staffReason,
  })
  .check(z.refine((v) => v.role !== undefined || v.disabled !== undefined, { message: 'nothing' }));
export type StaffUpdateRequest = z.infer<typeof staffUpdateRequest>;

/** A staff account as the admin's list shows it: with how many passkeys it has (ADR 0097). */
export const staffAccount = z.extend(staffMember, {
  passkeys: z.number().check(z.int(), z.gte(0)),
});
export type StaffAccount = z.infer<typeof staffAccount>;

export const staffList = z.object({ items: z.array(staffAccount) });

/** The audit log: every staff read of personal data and every change. Append-only. */
export const AUDIT_KINDS = ['read', 'change'] as const;
export const auditEntry = z.object({
  id: z.uuid(),
  at: z.iso.datetime({ offset: true }),
  kind: z.enum(AUDIT_KINDS),
  /** Who: `staff:<email>` for the console, `cli:<name>` for the operator command. */
  actor: z.string(),
  /** What, as a verb: `customer.view`, `order.retry`, `payment.refund`, … */
  action: z.string(),
  targetType: z.nullable(z.string()),
  targetId: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  details: z.nullable(z.record(z.string(), z.unknown())),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /api/staff/audit?actor=&action=&targetId=&from=&to=&before=&limit= */
export const auditQuery = z.object({
  actor: z.optional(z.string().check(z.maxLength(300))),
  action: z.optional(z.string().check(z.maxLength(100))),
  targetId: z.optional(z.string().check(z.maxLength(100))),
  from: z.optional(z.iso.datetime({ offset: true })),
  to: z.optional(z.iso.datetime({ offset: true })),
  /** Paging: entries older than this id's time. */
  before: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(500)), 100),
});
export type AuditQuery = z.infer<typeof auditQuery>;
export const auditPage = z.object({
  items: z.array(auditEntry),
  /** Pass as `before` for the next page; null on the last page. */
  nextBefore: z.nullable(z.uuid()),
});
export type AuditPage = z.infer<typeof auditPage>;

/*
 * Staff passkeys (ADR 0097): a second factor beside TOTP, which an admin can require per role.
 */

/** GET /api/staff/passkeys, GET /api/staff/accounts/:id/passkeys: newest first. */
export const staffPasskeyList = z.object({ items: z.array(passkey) });
export type StaffPasskeyList = z.infer<typeof staffPasskeyList>;

/** POST /api/staff/passkeys/options: the signed-in member's password again. */
export const staffPasskeyRegisterRequest = z.object({ password: staffPassword });
export type StaffPasskeyRegisterRequest = z.infer<typeof staffPasskeyRegisterRequest>;

/** Answer of POST /api/staff/passkeys/options: for `navigator.credentials.create()`. */
export const staffPasskeyCreationOptions = z.object({ options: passkeyCreationOptions });
export type StaffPasskeyCreationOptions = z.infer<typeof staffPasskeyCreationOptions>;

/** POST /api/staff/passkeys: the new credential, and the name the list shows. */
export const staffPasskeyCreateRequest = z.object({
  response: registrationResponse,
  name: z.optional(passkeyName),
});
export type StaffPasskeyCreateRequest = z.input<typeof staffPasskeyCreateRequest>;

/** One role's passkey rule, with how many of its active members it would shut out today. */
export const staffRolePolicy = z.object({
  role: staffRole,
  /** Its members sign in with a passkey only: a TOTP or recovery code is refused. */
  requirePasskey: z.boolean(),
  /** Active (not disabled) members of the role. */
  members: z.number().check(z.int(), z.gte(0)),
  /** Of them, those without a passkey: they cannot sign in once it is required. */
  membersWithoutPasskey: z.number().check(z.int(), z.gte(0)),
  /** When the rule last changed; null when never set. */
  updatedAt: z.nullable(z.iso.datetime({ offset: true })),
});
export type StaffRolePolicy = z.infer<typeof staffRolePolicy>;

/** GET /api/staff/role-policies (admin): every role, in STAFF_ROLES' order. */
export const staffRolePolicyList = z.object({ items: z.array(staffRolePolicy) });
export type StaffRolePolicyList = z.infer<typeof staffRolePolicyList>;

/** PUT /api/staff/role-policies/:role (admin) */
export const staffRolePolicyUpdate = z.object({
  requirePasskey: z.boolean(),
  reason: staffReason,
});
export type StaffRolePolicyUpdate = z.infer<typeof staffRolePolicyUpdate>;
