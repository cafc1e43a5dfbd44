/**
 * Number protection (issue 32, docs/decisions/0076-number-protection.md): the lock's states
 * and moves, and the port-out authorisation code. The API keeps these rules here only; the app
 * uses the same functions to show the state and to check a typed code's shape.
 */

/** Days a port-out authorisation code works after it is made. */
export const PORT_OUT_CODE_DAYS = 30;
/** Default cooling-off before an unlock opens the lock (NUMBER_UNLOCK_DELAY_H). */
export const NUMBER_UNLOCK_DELAY_H_DEFAULT = 24;
/** How long a data export's download link works. */
export const DATA_EXPORT_LINK_DAYS = 7;

/**
 * The lock of one number:
 * - `locked`: port-out, SIM change and new eSIM refused;
 * - `unlocking`: still locked; opens at `unlockAt` unless the customer cancels;
 * - `unlocked`: everything allowed.
 */
export type LockState =
  | { state: 'locked' }
  | { state: 'unlocking'; requestedAt: Date; unlockAt: Date }
  | { state: 'unlocked' };

/** What the lock stores, as the line row has it. */
export interface LockColumns {
  numberLocked: boolean;
  unlockAt: Date | null;
  unlockRequestedAt: Date | null;
}

/**
 * The state at `now` of a line's lock columns. An unlock whose time has come is `unlocked` even
 * before the job writes it, so no request can be refused (or allowed) by a lagging job.
 */
export function lockStateOf(columns: LockColumns, now: Date): LockState {
  if (!columns.numberLocked) return { state: 'unlocked' };
  if (columns.unlockAt && columns.unlockRequestedAt) {
    if (columns.unlockAt.getTime() <= now.getTime()) return { state: 'unlocked' };
    return {
      state: 'unlocking',
      requestedAt: columns.unlockRequestedAt,
      unlockAt: columns.unlockAt,
    };
  }
  return { state: 'locked' };
}

/** True when a port-out, a SIM change or a new eSIM must be refused (NUMBER_LOCKED). */
export function isLockedAt(columns: LockColumns, now: Date): boolean {
  return lockStateOf(columns, now).state !== 'unlocked';
}

export type LockEvent =
  { type: 'lock' } | { type: 'request_unlock'; delayH: number } | { type: 'cancel_unlock' };

/** A move of the lock: the new columns, or why it cannot be made (nothing changes then). */
export type LockMove =
  | { ok: true; columns: LockColumns; changed: boolean }
  | { ok: false; reason: 'NUMBER_UNLOCK_NOT_PENDING' };

/**
 * The lock's state machine. Locking is immediate (and ends a waiting unlock); an unlock asked
 * for waits `delayH` hours (a second ask keeps the first time: asking again never shortens it);
 * only a waiting unlock can be cancelled. Unlocking an unlocked number and locking a locked one
 * change nothing (`changed: false`), so a retried tap is harmless.
 */
export function moveLock(columns: LockColumns, event: LockEvent, now: Date): LockMove {
  const state = lockStateOf(columns, now);
  const locked: LockColumns = { numberLocked: true, unlockAt: null, unlockRequestedAt: null };
  const unlocked: LockColumns = { numberLocked: false, unlockAt: null, unlockRequestedAt: null };
  switch (event.type) {
    case 'lock':
      return { ok: true, columns: locked, changed: state.state !== 'locked' };
    case 'request_unlock':
      if (state.state === 'unlocked') return { ok: true, columns: unlocked, changed: false };
      if (state.state === 'unlocking') return { ok: true, columns, changed: false };
      return {
        ok: true,
        changed: true,
        columns: {
          numberLocked: true,
          unlockRequestedAt: now,
          unlockAt: new Date(now.getTime() + event.delayH * 3_600_000),
        },
      };
    case 'cancel_unlock':
      if (state.state !== 'unlocking') return { ok: false, reason: 'NUMBER_UNLOCK_NOT_PENDING' };
      return { ok: true, columns: locked, changed: true };
  }
}

/** Letters and digits of a port-out code: Crockford's base32 (no I, L, O, U). */
export const PORT_OUT_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters of a code (10 × 5 bits = 50 bits), shown as three groups: `ABCD-EFG-HJK`. */
export const PORT_OUT_CODE_LENGTH = 10;

/**
 * A code in the form it is hashed and compared in: upper case, without spaces and hyphens, with
 * the letters people mix up read as Crockford does (I, L → 1; O → 0). Null when it cannot be a
 * code (wrong length or characters).
 */
export function normalizePortOutCode(typed: string): string | null {
  const cleaned = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  if (cleaned.length !== PORT_OUT_CODE_LENGTH) return null;
  for (const ch of cleaned) if (!PORT_OUT_CODE_ALPHABET.includes(ch)) return null;
  return cleaned;
}

/** A normalized code as it is shown: `ABCD-EFG-HJK`. */
export function formatPortOutCode(normalized: string): string {
  return `${normalized.slice(0, 4)}-${normalized.slice(4, 7)}-${normalized.slice(7)}`;
}

/** A code from 10 random values (each 0–255; only the low 5 bits are used). */
export function portOutCodeFromRandom(bytes: Uint8Array): string {
  if (bytes.length < PORT_OUT_CODE_LENGTH) throw new Error('need 10 random bytes');
  let code = '';
  for (let i = 0; i < PORT_OUT_CODE_LENGTH; i++) code += PORT_OUT_CODE_ALPHABET[bytes[i]! & 31];
  return code;
}

/** When a code made at `createdAt` stops working. */
export function portOutCodeExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + PORT_OUT_CODE_DAYS * 86_400_000);
}

/** Whether a stored code still works at `now`: not used, not revoked, before its expiry. */
export function isPortOutCodeUsable(
  code: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): boolean {
  return !code.usedAt && !code.revokedAt && now.getTime() < code.expiresAt.getTime();
}

/**
 * Why another provider's port-out can be refused (ADR 0076): the error codes the request
 * answers and the log keeps. The activity log and the console say each in words.
 */
export const PORT_OUT_REFUSALS = [
  'NUMBER_LOCKED',
  'PORT_OUT_CODE_INVALID',
  'ORDER_PROCESSING',
  'TOO_MANY_ATTEMPTS',
] as const;
export type PortOutRefusalCode = (typeof PORT_OUT_REFUSALS)[number];

/** Whether a stored reason is one of {@link PORT_OUT_REFUSALS}. */
export const isPortOutRefusal = (reason: string): reason is PortOutRefusalCode =>
  (PORT_OUT_REFUSALS as readonly string[]).includes(reason);
