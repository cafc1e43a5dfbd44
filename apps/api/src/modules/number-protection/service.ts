import { createHash, randomBytes } from 'node:crypto';
import { numberLockPath, UNLOCK_CANCEL_PATH } from '@alda/contract/app-paths';
import type { ErrorCode } from '@alda/contract/errors';
import {
  formatPortOutCode,
  isLockedAt,
  isPortOutCodeUsable,
  lockStateOf,
  moveLock,
  normalizePortOutCode,
  portOutCodeExpiresAt,
  portOutCodeFromRandom,
  type LockColumns,
  type LockEvent,
  type PortOutRefusalCode,
} from '@alda/contract/rules/number-protection';
import type { ActionType } from '@alda/contract/schemas/actions';
import type {
  CancelUnlockByLinkResponse,
  LineProtection,
  PortOutCodeResponse,
  PortOutInboundRequest,
  PortOutInboundResponse,
} from '@alda/contract/schemas/number-protection';
import type { Reauthentication } from '@alda/contract/schemas/sessions';
import type { Db } from '../../db/client';
import type { ActionPayload } from '../../db/schema/actions';
import type { NotificationParams } from '../../db/schema/data-transfers';
import type { PhoneLineRow } from '../../db/schema/phone-lines';
import { AppError } from '../../errors';
import { LINK_PURPOSES, linkSigner } from '../../link-signing';
import { isUuid } from '../../uuid';
import type { AuthUser } from '../../plugins/auth';
import { insertActions } from '../actions/log';
import type { ClientMeta } from '../auth/service';
import { placeLifecycleOrder } from '../lifecycle/place';
import { insertNotifications } from '../notifications/notify';
import { recordAudit } from '../operator/audit';
import { findOpenOrders } from '../orders/lifecycle';
import { findLiveLine } from '../phone-lines/lines';
import { findLineWithAccount, lineAccess, type LineAccess } from '../sim/line-access';
import type { PendingEmail } from '../provisioning/service';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findViewersOfLines } from '../subscriptions/accounts';
import { bumpUserVersions } from '../versions/change-versions';
import {
  claimDueUnlocks,
  findAccount,
  findOpenCodeOfLine,
  insertCode,
  insertPortOutRequest,
  lockCodeOfLine,
  lockLiveLineByMsisdn,
  markCodeUsed,
  revokeCodesOfLine,
  updateLockColumns,
} from './repo';
import { unlockEmailText } from './texts';

export interface NumberProtectionDeps {
  db: Db;
  now: () => Date;
  limiter: RateLimiter;
  /** The sessions service's step-up (password again, or the SMS code). */
  reauthenticate: (caller: AuthUser, proof: Reauthentication, meta: ClientMeta) => Promise<void>;
  /** Sends e-mails after the commit, each in its reader's language (provisioning's sendEmails). */
  sendEmails: (pending: readonly PendingEmail[]) => void;
  /** Public web app address, for the e-mail's cancel link. */
  appUrl: string;
  /** LINK_SECRET: signs the cancel link. */
  linkSecret: string;
  /** NUMBER_UNLOCK_DELAY_H. */
  unlockDelayH: number;
  /** PROVISIONING_STEP_S: a port-out order completes after one step. */
  stepS: number;
}

type Access = Pick<LineAccess, 'line' | 'account'>;

/**
 * Who gave a port-out by hand (`npm run operator -- port-out`): the attempt, accepted or refused,
 * is also an entry of the staff audit log, written in the transaction that records it.
 */
export interface PortOutBy {
  /** The operator's name (as the other operator commands record it). */
  actor: string;
  staffUserId?: string | null;
}

/** A port-out refused: answered as `code`, recorded in a transaction of its own. */
class PortOutRefusal extends Error {
  constructor(
    readonly code: PortOutRefusalCode,
    readonly line: PhoneLineRow | null,
    readonly ownerUserId: string | null,
  ) {
    super(code);
  }
}

const hashCode = (normalized: string) => createHash('sha256').update(normalized).digest('hex');

/** The people a number's events concern: its user and its account's owner (once each). */
function concerned(line: PhoneLineRow, ownerUserId: string | null | undefined): string[] {
  return [...new Set([line.userId, ownerUserId].filter((id): id is string => !!id))];
}

/**
 * Number protection (issue 32, docs/decisions/0076-number-protection.md): the lock of a number
 * with its delayed unlock and one-tap cancel, the port-out authorisation code, and the inbound
 * port-out of another provider. Who: the account owner or the line's own user; another member of
 * the same account gets OWNER_ONLY, anyone else NOT_FOUND (as modules/sim).
 */
export function createNumberProtectionService(deps: NumberProtectionDeps) {
  const { db, now, limiter } = deps;

  const access = (userId: string, lineId: string, tx: Db = db, lock = false) =>
    lineAccess(tx, userId, lineId, lock);

  /**
   * The cancel link's signature, with the unlock-cancel key of LINK_SECRET (link-signing.ts):
   * over the line and the instant its waiting unlock was asked for.
   */
  const cancelSigner = linkSigner(deps.linkSecret, LINK_PURPOSES.unlockCancel);
  const cancelMessage = (lineId: string, requestedAt: Date) =>
    `${lineId}\u0000${requestedAt.toISOString()}`;

  function cancelToken(lineId: string, requestedAt: Date): string {
    return `${lineId}.${cancelSigner.sign(cancelMessage(lineId, requestedAt))}`;
  }

  async function protectionOf({ line }: Access, at: Date): Promise<LineProtection> {
    const state = lockStateOf(line, at);
    const code = await findOpenCodeOfLine(db, line.id);
    const usable = code && isPortOutCodeUsable(code, at) ? code : null;
    return {
      lineId: line.id,
      phoneNumber: line.msisdn,
      lock: {
        state: state.state,
        unlockAt: state.state === 'unlocking' ? state.unlockAt.toISOString() : null,
        requestedAt: state.state === 'unlocking' ? state.requestedAt.toISOString() : null,
      },
      unlockDelayMinutes: Math.ceil(deps.unlockDelayH * 60),
      simChangedAt: line.simChangedAt?.toISOString() ?? null,
      portOutCode: usable
        ? { createdAt: usable.createdAt.toISOString(), expiresAt: usable.expiresAt.toISOString() }
        : null,
    };
  }

  const ACTION_OF: Record<LockEvent['type'], ActionType> = {
    lock: 'number_locked',
    request_unlock: 'number_unlock_requested',
    cancel_unlock: 'number_unlock_cancelled',
  };

  /**
   * One move of the lock on the locked line, in `tx`: the columns, the log entries for the
   * line's user and the owner (the other one's with the caller as actor), the notification of a
   * scheduled unlock, the change versions. NUMBER_UNLOCK_NOT_PENDING when it cannot be made.
   */
  async function applyMove(
    tx: Db,
    found: Access,
    event: LockEvent,
    actorUserId: string | null,
    at: Date,
  ): Promise<{ line: PhoneLineRow; changed: boolean }> {
    const { line, account } = found;
    const move = moveLock(line, event, at);
    if (!move.ok)
      throw new AppError(move.reason, { detail: `no unlock of line ${line.id} is waiting` });
    if (!move.changed) return { line, changed: false };
    await updateLockColumns(tx, line.id, move.columns);
    const people = concerned(line, account?.ownerUserId);
    const payload: ActionPayload =
      event.type === 'request_unlock' && move.columns.unlockAt
        ? { at: move.columns.unlockAt.toISOString() }
        : {};
    await insertActions(
      tx,
      people.map((userId) => ({
        userId,
        actorUserId: actorUserId && actorUserId !== userId ? actorUserId : null,
        lineId: line.id,
        type: ACTION_OF[event.type],
        payload,
        createdAt: at,
      })),
    );
    if (event.type === 'request_unlock' && move.columns.unlockAt)
      await insertNotifications(
        tx,
        people.map((userId) => ({
          userId,
          type: 'number_unlock_scheduled' as const,
          params: { phoneNumber: line.msisdn, at: move.columns.unlockAt?.toISOString() },
          link: numberLockPath(line.id),
          createdAt: at,
        })),
      );
    await bumpUserVersions(tx, [...people, ...(await findViewersOfLines(tx, [line.id]))]);
    return { line: { ...line, ...move.columns }, changed: true };
  }

  /** The unlock e-mail to each person concerned, in their language, after the commit. */
  function sendUnlockEmails(line: PhoneLineRow, people: readonly string[]): void {
    if (!line.unlockAt || !line.unlockRequestedAt) return;
    const url = `${deps.appUrl}${UNLOCK_CANCEL_PATH}?token=${encodeURIComponent(
      cancelToken(line.id, line.unlockRequestedAt),
    )}`;
    const text = unlockEmailText(line.msisdn, line.unlockAt, url);
    deps.sendEmails(people.map((userId) => ({ userId, ...text })));
  }

  /** The audit entry of a port-out given by an operator (`port-out`, target the number). */
  async function auditPortOut(
    tx: Db,
    by: PortOutBy | undefined,
    request: PortOutInboundRequest,
    at: Date,
    outcome: { lineId: string | null } & (
      { accepted: true; orderId: string; portDate: Date } | { accepted: false; reason: ErrorCode }
    ),
  ): Promise<void> {
    if (!by) return;
    await recordAudit(tx, {
      actor: by.actor,
      staffUserId: by.staffUserId ?? null,
      kind: 'change',
      action: 'port-out',
      targetType: 'number',
      targetId: request.phoneNumber,
      reason: outcome.accepted ? null : outcome.reason,
      details: {
        provider: request.provider,
        lineId: outcome.lineId,
        ...(outcome.accepted
          ? {
              outcome: 'accepted',
              orderId: outcome.orderId,
              portDate: outcome.portDate.toISOString(),
            }
          : { outcome: 'refused' }),
      },
      at,
    });
  }

  /** Writes a refused port-out (its own transaction: the request's has rolled back). */
  async function recordRefusal(
    refusal: PortOutRefusal,
    request: PortOutInboundRequest,
    at: Date,
    by?: PortOutBy,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const line = refusal.line;
      await auditPortOut(tx, by, request, at, {
        lineId: line?.id ?? null,
        accepted: false,
        reason: refusal.code,
      });
      await insertPortOutRequest(tx, {
        msisdn: request.phoneNumber,
        lineId: line?.id ?? null,
        provider: request.provider,
        outcome: 'refused',
        reason: refusal.code,
        createdAt: at,
      });
      if (!line) return;
      const people = concerned(line, refusal.ownerUserId);
      await insertActions(
        tx,
        people.map((userId) => ({
          userId,
          lineId: line.id,
          type: 'port_out_refused' as const,
          payload: { reason: refusal.code, provider: request.provider },
          createdAt: at,
        })),
      );
      const params: NotificationParams = {
        phoneNumber: line.msisdn,
        outcome: 'refused',
        at: at.toISOString(),
      };
      await insertNotifications(
        tx,
        people.map((userId) => ({
          userId,
          type: 'port_out' as const,
          params,
          link: numberLockPath(line.id),
          createdAt: at,
        })),
      );
      await bumpUserVersions(tx, people);
    });
  }

  return {
    /** GET /api/subscriptions/{id}/protection. */
    async get(userId: string, lineId: string): Promise<LineProtection> {
      return protectionOf(await access(userId, lineId), now());
    },

    /** POST …/protection/lock: at once; ends a waiting unlock. */
    async lock(userId: string, lineId: string): Promise<LineProtection> {
      const at = now();
      const found = await db.transaction(async (tx) => {
        const locked = await access(userId, lineId, tx, true);
        const moved = await applyMove(tx, locked, { type: 'lock' }, userId, at);
        return { ...locked, line: moved.line };
      });
      return protectionOf(found, at);
    },

    /**
     * POST …/protection/unlock: after the step-up, the lock opens NUMBER_UNLOCK_DELAY_H later
     * unless cancelled; the e-mail with the one-tap cancel goes after the commit. Asking again
     * while one waits keeps the first time (and sends nothing new).
     */
    async requestUnlock(
      caller: AuthUser,
      lineId: string,
      proof: Reauthentication,
      meta: ClientMeta,
    ): Promise<LineProtection> {
      await access(caller.id, lineId);
      await deps.reauthenticate(caller, proof, meta);
      const at = now();
      const result = await db.transaction(async (tx) => {
        const locked = await access(caller.id, lineId, tx, true);
        const moved = await applyMove(
          tx,
          locked,
          { type: 'request_unlock', delayH: deps.unlockDelayH },
          caller.id,
          at,
        );
        return { found: { ...locked, line: moved.line }, changed: moved.changed };
      });
      if (result.changed)
        sendUnlockEmails(
          result.found.line,
          concerned(result.found.line, result.found.account?.ownerUserId),
        );
      return protectionOf(result.found, at);
    },

    /**
     * Demo mode (`POST /dev/number-unlocks`, issue 41): the cooling-off of the waiting unlock of
     * `phoneNumber` ends `seconds` from now instead of at its time, so a demo or a browser
     * journey sees the screen turn to unlocked by itself without waiting NUMBER_UNLOCK_DELAY_H
     * (or racing a short one). False when no unlock of that number waits.
     */
    async endCoolingOffIn(phoneNumber: string, seconds: number): Promise<boolean> {
      const at = now();
      return db.transaction(async (tx) => {
        const line = await lockLiveLineByMsisdn(tx, phoneNumber);
        if (!line || lockStateOf(line, at).state !== 'unlocking') return false;
        await updateLockColumns(tx, line.id, {
          numberLocked: true,
          unlockRequestedAt: line.unlockRequestedAt,
          unlockAt: new Date(at.getTime() + seconds * 1000),
        });
        await bumpUserVersions(tx, await findViewersOfLines(tx, [line.id]));
        return true;
      });
    },

    /** DELETE …/protection/unlock: NUMBER_UNLOCK_NOT_PENDING when none waits. */
    async cancelUnlock(userId: string, lineId: string): Promise<LineProtection> {
      const at = now();
      const found = await db.transaction(async (tx) => {
        const locked = await access(userId, lineId, tx, true);
        const moved = await applyMove(tx, locked, { type: 'cancel_unlock' }, userId, at);
        return { ...locked, line: moved.line };
      });
      return protectionOf(found, at);
    },

    /**
     * POST /api/number-unlocks/cancel: the e-mail's one-tap cancel, without signing in. The
     * token works only while the unlock it was sent for still waits (UNLOCK_LINK_INVALID
     * otherwise, the same answer for a forged one); limited per address.
     */
    async cancelByLink(token: string, ip: string): Promise<CancelUnlockByLinkResponse> {
      await limiter.consume([{ policy: POLICIES.unlockLinkIp, subject: [ip] }]);
      const invalid = () => new AppError('UNLOCK_LINK_INVALID', { detail: 'unlock link' });
      const [lineId, sig, ...rest] = token.split('.');
      if (!lineId || !sig || rest.length > 0 || !isUuid(lineId)) throw invalid();
      const at = now();
      return db.transaction(async (tx) => {
        const found = await findLineWithAccount(tx, lineId, true);
        if (!found) throw invalid();
        const { line } = found;
        const state = lockStateOf(line, at);
        if (state.state !== 'unlocking') throw invalid();
        if (!cancelSigner.verify(cancelMessage(line.id, state.requestedAt), sig)) throw invalid();
        await applyMove(tx, found, { type: 'cancel_unlock' }, null, at);
        return { phoneNumber: line.msisdn, state: 'locked' as const };
      });
    },

    /**
     * POST /api/subscriptions/{id}/port-out-code: a new code, shown this once; the line's
     * earlier codes stop working. Allowed while locked (the lock refuses the port, not the code).
     */
    async createPortOutCode(userId: string, lineId: string): Promise<PortOutCodeResponse> {
      const at = now();
      const code = portOutCodeFromRandom(randomBytes(10));
      const expiresAt = portOutCodeExpiresAt(at);
      await db.transaction(async (tx) => {
        const { line, account } = await access(userId, lineId, tx, true);
        await revokeCodesOfLine(tx, line.id, at);
        await insertCode(tx, {
          lineId: line.id,
          userId,
          codeHash: hashCode(code),
          createdAt: at,
          expiresAt,
        });
        const people = concerned(line, account?.ownerUserId);
        await insertActions(
          tx,
          people.map((id) => ({
            userId: id,
            actorUserId: id !== userId ? userId : null,
            lineId: line.id,
            type: 'port_out_code_created' as const,
            payload: {},
            createdAt: at,
          })),
        );
        await bumpUserVersions(tx, people);
      });
      return {
        code: formatPortOutCode(code),
        createdAt: at.toISOString(),
        expiresAt: expiresAt.toISOString(),
      };
    },

    /**
     * Another provider asks for one of our numbers with the customer's code (POST /dev/port-out
     * in demo mode, `npm run operator -- port-out`). In one transaction with the line locked:
     * not a live number of ours or a wrong, used or expired code → PORT_OUT_CODE_INVALID (the
     * same answer: nothing is revealed); locked → NUMBER_LOCKED; an open order on the line →
     * ORDER_PROCESSING. Accepted: the code used, a `port_out` order that provisioning completes
     * after one step (the line ends then). Every attempt is recorded, refusals in their own
     * transaction; wrong codes count per number (429 TOO_MANY_ATTEMPTS). Given `by` (the
     * operator command), each attempt is also a staff audit entry in the same transaction.
     */
    async requestPortOut(
      request: PortOutInboundRequest,
      by?: PortOutBy,
    ): Promise<PortOutInboundResponse> {
      const at = now();
      let permit;
      try {
        permit = await limiter.consume([
          { policy: POLICIES.portOutCodeNumber, subject: [request.phoneNumber] },
        ]);
      } catch (error) {
        if (error instanceof AppError && error.code === 'TOO_MANY_ATTEMPTS') {
          const line = await findLiveLine(db, request.phoneNumber);
          const account = line?.accountId ? await findAccount(db, line.accountId) : undefined;
          await recordRefusal(
            new PortOutRefusal('TOO_MANY_ATTEMPTS', line ?? null, account?.ownerUserId ?? null),
            request,
            at,
            by,
          );
        }
        throw error;
      }
      try {
        const accepted = await db.transaction(async (tx) => {
          const line = await lockLiveLineByMsisdn(tx, request.phoneNumber);
          if (!line) throw new PortOutRefusal('PORT_OUT_CODE_INVALID', null, null);
          const account = line.accountId ? await findAccount(tx, line.accountId) : undefined;
          const owner = account?.ownerUserId ?? null;
          if (isLockedAt(line, at)) throw new PortOutRefusal('NUMBER_LOCKED', line, owner);
          const normalized = normalizePortOutCode(request.code);
          const code = normalized ? await lockCodeOfLine(tx, line.id, hashCode(normalized)) : null;
          if (!code || !isPortOutCodeUsable(code, at))
            throw new PortOutRefusal('PORT_OUT_CODE_INVALID', line, owner);
          const open = await findOpenOrders(tx, { lineIds: [line.id] });
          if (line.status === 'processing' || open.length > 0)
            throw new PortOutRefusal('ORDER_PROCESSING', line, owner);
          await markCodeUsed(tx, code.id, at);
          const placer = owner ?? line.userId;
          if (!placer) throw new PortOutRefusal('PORT_OUT_CODE_INVALID', line, owner);
          const { order, emails } = await placeLifecycleOrder(tx, {
            kind: 'cancellation',
            action: 'port_out',
            userId: placer,
            accountId: account?.id ?? null,
            lineId: line.id,
            msisdn: line.msisdn,
            planId: null,
            previousPlanId: line.planId ?? account?.planId ?? null,
            effectiveAt: at,
            idempotencyKey: null,
            requestHash: null,
            now: at,
            stepS: deps.stepS,
            alsoNotify: line.userId ? [line.userId] : [],
            actionPayload: { provider: request.provider },
            // The port_out notification below is the customer's one (it names the time).
            notify: false,
          });
          const portDate = order.provisioningNextAt ?? at;
          await insertPortOutRequest(tx, {
            msisdn: line.msisdn,
            lineId: line.id,
            provider: request.provider,
            outcome: 'accepted',
            orderId: order.id,
            portDate,
            createdAt: at,
          });
          await auditPortOut(tx, by, request, at, {
            lineId: line.id,
            accepted: true,
            orderId: order.id,
            portDate,
          });
          const people = concerned(line, owner);
          // placeLifecycleOrder logged it for the placer; the line's user gets it too.
          await insertActions(
            tx,
            people
              .filter((id) => id !== placer)
              .map((userId) => ({
                userId,
                lineId: line.id,
                type: 'port_out_accepted' as const,
                payload: { provider: request.provider },
                createdAt: at,
              })),
          );
          await insertNotifications(
            tx,
            people.map((userId) => ({
              userId,
              type: 'port_out' as const,
              params: {
                phoneNumber: line.msisdn,
                outcome: 'accepted',
                at: portDate.toISOString(),
              },
              // The placer sees the order in their orders; the line's user does not.
              link: userId === placer ? `/menu/bilegingar/${order.id}` : null,
              createdAt: at,
            })),
          );
          return { orderId: order.id, portDate, emails };
        });
        deps.sendEmails(accepted.emails);
        await permit.refund();
        return {
          accepted: true,
          portDate: accepted.portDate.toISOString(),
          orderId: accepted.orderId,
        };
      } catch (error) {
        if (!(error instanceof PortOutRefusal)) throw error;
        // Only a wrong code counts against the number's limit.
        if (error.code !== 'PORT_OUT_CODE_INVALID') await permit.refund();
        await recordRefusal(error, request, at, by);
        throw new AppError(error.code, { detail: `port-out of ${request.phoneNumber} refused` });
      }
    },

    /**
     * The unlock job's round: every unlock whose time has come is written as unlocked (columns
     * cleared, log entry, notification, versions), in batches claimed with SKIP LOCKED. Answers
     * how many were completed. The rules never wait for it: a due unlock already counts as open.
     */
    async completeDueUnlocks(at: Date = now()): Promise<number> {
      let done = 0;
      for (;;) {
        const count = await db.transaction(async (tx) => {
          const due = await claimDueUnlocks(tx, at, 50);
          for (const line of due) {
            const unlocked: LockColumns = {
              numberLocked: false,
              unlockAt: null,
              unlockRequestedAt: null,
            };
            await updateLockColumns(tx, line.id, unlocked);
            const account = line.accountId ? await findAccount(tx, line.accountId) : undefined;
            const people = concerned(line, account?.ownerUserId);
            await insertActions(
              tx,
              people.map((userId) => ({
                userId,
                lineId: line.id,
                type: 'number_unlocked' as const,
                payload: {},
                createdAt: at,
              })),
            );
            await insertNotifications(
              tx,
              people.map((userId) => ({
                userId,
                type: 'number_unlocked' as const,
                params: { phoneNumber: line.msisdn },
                link: numberLockPath(line.id),
                createdAt: at,
              })),
            );
            await bumpUserVersions(tx, [...people, ...(await findViewersOfLines(tx, [line.id]))]);
          }
          return due.length;
        });
        done += count;
        if (count < 50) return done;
      }
    },
  };
}

export type NumberProtectionService = ReturnType<typeof createNumberProtectionService>;
