import type { FastifyBaseLogger } from 'fastify';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { PASSKEYS_PATH } from '@alda/contract/app-paths';
import { formatDateTime } from '@alda/contract/format/date';
import { formatDevice } from '@alda/contract/format/device';
import type { Tokens } from '@alda/contract/schemas/auth';
import {
  PASSKEY_FRESH_SIGN_IN_S,
  type Passkey,
  type PasskeyCreateRequest,
  type PasskeyLoginRequest,
  type PasskeyRequestOptions,
  type PasskeyCreationOptions,
} from '@alda/contract/schemas/passkeys';
import type { Reauthentication } from '@alda/contract/schemas/sessions';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import { passkeys, type PasskeyRow } from '../../db/schema/passkeys';
import { AppError } from '../../errors';
import type { AuthUser } from '../../plugins/auth';
import { insertActions } from '../actions/log';
import { newPasskeyEmail, type AuthService, type ClientMeta } from '../auth/service';
import type { SessionsService } from '../auth/sessions-service';
import { recordAudit } from '../operator/audit';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserById } from '../users/records';
import { userHandleText, type RelyingParty } from './relying-party';

/** For the staff's passkeys (modules/staff), which share the relying party. */
export { userHandleText };

/*
 * Customers' passkeys (docs/decisions/0097-passkeys.md): made after the customer proved who they
 * are (the password or an SMS code, or a sign-in of the last five minutes), used to sign in with
 * nothing else, listed, renamed and deleted (the proof again; never the last way in). Each add,
 * use and delete lands in the activity log and the audit log in the transaction of the change;
 * a new passkey is e-mailed, like a sign-in on a new device.
 */

export interface PasskeyServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  rp: RelyingParty;
  auth: Pick<AuthService, 'startSession' | 'signedIn' | 'activeSession'>;
  sessions: Pick<SessionsService, 'reauthenticate'>;
  limiter: RateLimiter;
  alerts?: { email: EmailSender; background: BackgroundTasks; appUrl: string };
}

export function passkeyDto(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    backedUp: row.backedUp,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

const actorOf = (userId: string) => `customer:${userId}`;

export function createPasskeyService(deps: PasskeyServiceDeps) {
  const { db, now, rp } = deps;

  const passkeysOf = (executor: Db, userId: string) =>
    executor
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(desc(passkeys.createdAt));

  async function signedInSession(caller: AuthUser) {
    const session = await deps.auth.activeSession(caller.sessionId);
    if (!session) throw new AppError('UNAUTHORIZED', { detail: 'session ended' });
    return session;
  }

  return {
    async list(caller: AuthUser): Promise<Passkey[]> {
      return (await passkeysOf(db, caller.id)).map(passkeyDto);
    },

    /**
     * Options to make a passkey, once the caller proved who they are: the password or SMS code
     * (as for ending another session, ASVS 5.0 7.5.2), or none within five minutes of this
     * session's sign-in (the offer after registration and after a password sign-in).
     */
    async registrationOptions(
      caller: AuthUser,
      proof: Reauthentication,
      meta: ClientMeta,
    ): Promise<PasskeyCreationOptions> {
      const session = await signedInSession(caller);
      const fresh = now().getTime() - session.createdAt.getTime() <= PASSKEY_FRESH_SIGN_IN_S * 1000;
      const proofGiven = proof.password !== undefined || proof.code !== undefined;
      if (proofGiven || !fresh) await deps.sessions.reauthenticate(caller, proof, meta);
      const user = await findUserById(db, caller.id);
      if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user gone' });
      return rp.registrationOptions(
        db,
        {
          id: user.id,
          // What the device's passkey list shows: the address they sign in with.
          name: user.email,
          displayName: `${user.firstname} ${user.lastname}`.trim(),
        },
        await passkeysOf(db, user.id),
        'register',
        { sessionId: session.id },
      );
    },

    /** Stores a new passkey answered to this session's challenge; e-mails the customer. */
    async create(caller: AuthUser, request: PasskeyCreateRequest): Promise<Passkey> {
      const session = await signedInSession(caller);
      const at = now();
      const result = await db.transaction(async (tx) => {
        const verified = await rp.verifyRegistration(tx, request.response, 'register', {
          sessionId: session.id,
        });
        const user = await findUserById(tx, caller.id);
        // Unnamed by the app: the device this session signed in on, in the customer's words.
        const name =
          request.name?.trim() ||
          formatDevice(
            {
              name: session.deviceName,
              platform: session.devicePlatform,
              model: session.deviceModel,
            },
            user?.locale ?? 'fo',
          );
        const [row] = await tx
          .insert(passkeys)
          .values({ ...verified, userId: caller.id, name, createdAt: at })
          .returning();
        if (!row) throw new Error('passkeys insert returned no row');
        await insertActions(tx, [
          { userId: caller.id, type: 'passkey_added', payload: { passkey: name }, createdAt: at },
        ]);
        await recordAudit(tx, {
          actor: actorOf(caller.id),
          kind: 'change',
          action: 'passkey.create',
          targetType: 'user',
          targetId: caller.id,
          details: { passkeyId: row.id, name, backedUp: row.backedUp },
          at,
        });
        return { row, user };
      });
      const { user } = result;
      if (deps.alerts && user) {
        const message = newPasskeyEmail(user.locale, {
          to: user.email,
          firstname: user.firstname,
          name: result.row.name,
          at: formatDateTime(at),
          link: `${deps.alerts.appUrl}${PASSKEYS_PATH}`,
        });
        const { email } = deps.alerts;
        deps.alerts.background.run('new passkey e-mail', async () => {
          await email.send(message);
          deps.log.info({ userId: user.id, via: email.kind }, 'new passkey e-mail sent');
        });
      }
      return passkeyDto(result.row);
    },

    async rename(caller: AuthUser, id: string, name: string): Promise<Passkey> {
      const at = now();
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(passkeys)
          .set({ name: name.trim() })
          .where(and(eq(passkeys.id, id), eq(passkeys.userId, caller.id)))
          .returning();
        if (!row) throw new AppError('PASSKEY_NOT_FOUND');
        await recordAudit(tx, {
          actor: actorOf(caller.id),
          kind: 'change',
          action: 'passkey.rename',
          targetType: 'user',
          targetId: caller.id,
          details: { passkeyId: row.id, name: row.name },
          at,
        });
        return passkeyDto(row);
      });
    },

    /**
     * Deletes one of the caller's passkeys with the proof again. Refused when it is the last way
     * in: no password, no number to send a code to, and no other passkey.
     */
    async remove(
      caller: AuthUser,
      id: string,
      proof: Reauthentication,
      meta: ClientMeta,
    ): Promise<void> {
      /** The passkey, unless it is not the caller's or is their last way in. */
      const deletable = async (executor: Db, lock: boolean) => {
        const query = executor.select().from(passkeys).where(eq(passkeys.userId, caller.id));
        const rows = lock ? await query.for('update') : await query;
        const row = rows.find((r) => r.id === id);
        if (!row) throw new AppError('PASSKEY_NOT_FOUND');
        const user = await findUserById(executor, caller.id);
        if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user gone' });
        if (rows.length === 1 && user.passwordHash === null && user.phoneNumber === null) {
          throw new AppError('PASSKEY_LAST_WAY_IN');
        }
        return row;
      };
      // Said before the proof is asked for: no password or code can make it deletable.
      await deletable(db, false);
      await deps.sessions.reauthenticate(caller, proof, meta);
      const at = now();
      await db.transaction(async (tx) => {
        const row = await deletable(tx, true);
        await tx.delete(passkeys).where(eq(passkeys.id, row.id));
        await insertActions(tx, [
          {
            userId: caller.id,
            type: 'passkey_removed',
            payload: { passkey: row.name },
            createdAt: at,
          },
        ]);
        await recordAudit(tx, {
          actor: actorOf(caller.id),
          kind: 'change',
          action: 'passkey.delete',
          targetType: 'user',
          targetId: caller.id,
          details: { passkeyId: row.id, name: row.name },
          at,
        });
      });
    },

    /** A challenge any of the customer's passkeys can answer (conditional UI or the button). */
    async loginOptions(meta: ClientMeta): Promise<PasskeyRequestOptions> {
      await deps.limiter.consume([{ policy: POLICIES.passkeyOptionsIp, subject: [meta.ip] }]);
      return rp.authenticationOptions(db, [], 'sign_in', {});
    },

    /**
     * Sign-in with a passkey: the credential names its user; the answer must be to a challenge
     * of ours, from our origin, for our RP ID, with the user verified and the counter risen.
     * Counted as a sign-in attempt of the address until it succeeds.
     */
    async login(request: PasskeyLoginRequest, meta: ClientMeta): Promise<Tokens> {
      const checks = [{ policy: POLICIES.loginIp, subject: [meta.ip] }];
      const permit = await deps.limiter.consume(checks);
      const at = now();
      const started = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(passkeys)
          .where(and(eq(passkeys.credentialId, request.response.id), isNotNull(passkeys.userId)))
          .for('update');
        if (!row?.userId) {
          throw new AppError('PASSKEY_NOT_RECOGNISED', { detail: 'unknown credential' });
        }
        const handle = request.response.response.userHandle;
        if (handle !== undefined && handle !== '' && handle !== userHandleText(row.userId)) {
          throw new AppError('PASSKEY_NOT_RECOGNISED', { detail: "another user's credential" });
        }
        const used = await rp.verifyAuthentication(tx, request.response, row, 'sign_in', {});
        const userId = row.userId;
        await insertActions(tx, [
          { userId, type: 'signed_in_passkey', payload: { passkey: used.name }, createdAt: at },
        ]);
        await recordAudit(tx, {
          actor: actorOf(userId),
          kind: 'change',
          action: 'passkey.sign_in',
          targetType: 'user',
          targetId: userId,
          details: { passkeyId: used.id },
          at,
        });
        return deps.auth.startSession(tx, userId, meta, at);
      });
      await permit.refund();
      return deps.auth.signedIn(started);
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
