import { z } from 'zod/mini';
import { phoneNumber } from '../rules/phone';
import { id, isoDateTime } from './common';
import { reauthentication } from './sessions';

/*
 * Number protection (issue 32, docs/decisions/0076-number-protection.md): the number lock, the
 * port-out authorisation code, and the customer's data export. Rules: rules/number-protection.ts.
 */

export const lockStateName = z.enum(['locked', 'unlocking', 'unlocked']);
export type LockStateName = z.infer<typeof lockStateName>;

/**
 * GET /api/subscriptions/{id}/protection: a number's lock, its latest SIM change and whether a
 * port-out code is out (never the code itself: it is shown once, when made).
 */
export const lineProtection = z.object({
  lineId: id,
  phoneNumber,
  lock: z.object({
    state: lockStateName,
    /** `unlocking`: when the lock opens unless cancelled. */
    unlockAt: z.nullable(isoDateTime),
    /** `unlocking`: when the unlock was asked for. */
    requestedAt: z.nullable(isoDateTime),
  }),
  /** How long an unlock waits once asked for (NUMBER_UNLOCK_DELAY_H), in whole minutes, rounded up. */
  unlockDelayMinutes: z.int().check(z.nonnegative()),
  /** The latest SIM change or eSIM re-issue; null when the number has had none. */
  simChangedAt: z.nullable(isoDateTime),
  /** The port-out code that works now (made, not used, not expired), without the code. */
  portOutCode: z.nullable(z.object({ createdAt: isoDateTime, expiresAt: isoDateTime })),
});
export type LineProtection = z.infer<typeof lineProtection>;

/** POST /api/subscriptions/{id}/protection/unlock: the password again, or the SMS code. */
export const unlockRequest = reauthentication;
export type UnlockRequest = z.input<typeof unlockRequest>;

/**
 * POST /api/number-unlocks/cancel: the one-tap cancel of the e-mail's link, which works without
 * signing in (the customer may have lost the account to whoever asked for the unlock).
 */
export const cancelUnlockByLinkRequest = z.strictObject({
  token: z.string().check(z.minLength(1), z.maxLength(512)),
});
export type CancelUnlockByLinkRequest = z.infer<typeof cancelUnlockByLinkRequest>;
export const cancelUnlockByLinkResponse = z.object({ phoneNumber, state: lockStateName });
export type CancelUnlockByLinkResponse = z.infer<typeof cancelUnlockByLinkResponse>;

/** POST /api/subscriptions/{id}/port-out-code: the new code, shown this once. */
export const portOutCodeResponse = z.object({
  /** As shown and typed: `ABCD-EFG-HJK` (Crockford base32, 50 bits). */
  code: z.string(),
  createdAt: isoDateTime,
  expiresAt: isoDateTime,
});
export type PortOutCodeResponse = z.infer<typeof portOutCodeResponse>;

/**
 * An inbound port-out request of another provider (the simulated one in demo mode:
 * POST /dev/port-out): the number, the code the customer gave them, and who they are.
 */
export const portOutInboundRequest = z.strictObject({
  phoneNumber,
  code: z.string().check(z.minLength(1), z.maxLength(64)),
  provider: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
});
export type PortOutInboundRequest = z.infer<typeof portOutInboundRequest>;
export const portOutInboundResponse = z.object({
  accepted: z.literal(true),
  /** When the number moves. */
  portDate: isoDateTime,
  orderId: id,
});
export type PortOutInboundResponse = z.infer<typeof portOutInboundResponse>;

export const dataExportState = z.enum(['queued', 'preparing', 'ready', 'failed', 'expired']);
export type DataExportState = z.infer<typeof dataExportState>;

/**
 * A data export (GDPR Art. 15 and 20): POST /api/profile/data-exports asks for one (202),
 * GET /api/profile/data-exports lists them, newest first. `downloadUrl` (a signed, time-limited
 * link, also e-mailed) only while `ready`.
 */
export const dataExport = z.object({
  id,
  state: dataExportState,
  /** 0–100 while it is prepared. */
  progress: z.int().check(z.gte(0), z.lte(100)),
  createdAt: isoDateTime,
  readyAt: z.nullable(isoDateTime),
  expiresAt: z.nullable(isoDateTime),
  downloadUrl: z.nullable(z.string()),
});
export type DataExport = z.infer<typeof dataExport>;
export const dataExportList = z.array(dataExport);
