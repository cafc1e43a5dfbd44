import { z } from 'zod/mini';

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

/** POST /api/staff/auth/sign-in */
export const staffSignInRequest = z.object({
  email: z.email().check(z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
  totpCode,
});
export type StaffSignInRequest = z.infer<typeof staffSignInRequest>;

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

export const staffList = z.object({ items: z.array(staffMember) });

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
