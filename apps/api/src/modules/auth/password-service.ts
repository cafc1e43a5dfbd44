import { createHash, randomBytes } from 'node:crypto';
import { RESET_PASSWORD_PATH } from '@alda/contract/app-paths';
import type { FastifyBaseLogger } from 'fastify';
import type { Tokens } from '@alda/contract/schemas/auth';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { findUserByEmail, findUserById, updateUser } from '../users/records';
import { passwordResetEmail } from './messages';
import { hashPassword, verifyPassword } from './passwords';
import {
  claimResetToken,
  findUsableResetToken,
  insertResetToken,
  spendResetTokensOfUser,
} from './password-reset-repo';
import { revokeSessionsOfUser } from './repo';
import { emailLoginChecks, type AuthService, type ClientMeta } from './service';
import { type AuthUser } from '../../plugins/auth';

/** How long a reset link works. */
export const RESET_TOKEN_TTL_S = 60 * 60;

export interface PasswordServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  email: EmailSender;
  background: BackgroundTasks;
  auth: Pick<AuthService, 'startSession' | 'signedIn'>;
  /** Public web app address, no trailing slash (APP_URL). */
  appUrl: string;
}

/** 256 random bits, URL-safe: far beyond guessing, so the table can keep a fast hash. */
const newResetToken = () => randomBytes(32).toString('base64url');
const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Passwords after sign-up: forgot → e-mailed link → reset (SPEC §7), and change password on the
 * profile. A new password ends the other sessions of the user.
 */
export function createPasswordService(deps: PasswordServiceDeps) {
  const { db, now, limiter } = deps;

  return {
    /**
     * Sends a reset link when the address has a user, and answers the same either way: the
     * e-mail goes out in the background so the answer's timing does not tell either. At most
     * three e-mails per account per 15 minutes; further requests are answered but not sent.
     */
    async forgotPassword(email: string, meta: ClientMeta): Promise<void> {
      await limiter.consume([{ policy: POLICIES.resetMailIp, subject: [meta.ip] }]);
      const user = await findUserByEmail(db, email);
      if (!user) {
        deps.log.info('password reset asked for an address without a user');
        return;
      }
      const perAccount = await limiter.tryConsume([
        { policy: POLICIES.resetMailAccount, subject: [user.id] },
      ]);
      if (!perAccount.allowed) {
        deps.log.warn({ userId: user.id }, 'password reset e-mail not sent: account limit reached');
        return;
      }
      const token = newResetToken();
      const at = now();
      await insertResetToken(db, {
        userId: user.id,
        tokenHash: hashResetToken(token),
        now: at,
        expiresAt: new Date(at.getTime() + RESET_TOKEN_TTL_S * 1000),
      });
      const link = `${deps.appUrl}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
      const message = passwordResetEmail(user.locale, {
        to: user.email,
        firstname: user.firstname,
        link,
      });
      deps.background.run('password reset e-mail', async () => {
        await deps.email.send(message);
        deps.log.info({ userId: user.id, via: deps.email.kind }, 'password reset e-mail sent');
      });
    },

    /**
     * Sets a new password with a reset token: the token is spent, every session of the user
     * ends (whoever may have held one), unused links die, the e-mail login lock of the account
     * is lifted, and the caller is signed in with a fresh session.
     */
    async resetPassword(token: string, password: string, meta: ClientMeta): Promise<Tokens> {
      const tokenHash = hashResetToken(token);
      // Check before hashing: a wrong token must not cost an argon2 run.
      if (!(await findUsableResetToken(db, tokenHash, now()))) {
        throw new AppError('TOKEN_INVALID', { detail: 'unknown, used or expired reset token' });
      }
      const passwordHash = await hashPassword(password);
      const at = now();
      const { started, email } = await db.transaction(async (tx) => {
        const claimed = await claimResetToken(tx, tokenHash, at);
        if (!claimed)
          throw new AppError('TOKEN_INVALID', { detail: 'reset token spent meanwhile' });
        const user = await updateUser(tx, claimed.userId, { passwordHash });
        if (!user) throw new AppError('TOKEN_INVALID', { detail: 'user of the token is gone' });
        await spendResetTokensOfUser(tx, user.id, at);
        const ended = await revokeSessionsOfUser(tx, user.id, 'password_reset', at);
        await insertActions(tx, [{ userId: user.id, type: 'password_changed', createdAt: at }]);
        deps.log.info({ userId: user.id, sessionsEnded: ended }, 'password reset');
        return { started: await deps.auth.startSession(tx, user.id, meta, at), email: user.email };
      });
      await limiter.reset(emailLoginChecks(email, meta.ip).slice(0, 2));
      return deps.auth.signedIn(started);
    },

    /**
     * Change password (profile): the current password is required — counted per user, so a
     * stolen access token cannot be used to guess it — and every other session ends.
     */
    async changePassword(
      caller: AuthUser,
      currentPassword: string,
      password: string,
    ): Promise<void> {
      const permit = await limiter.consume([
        { policy: POLICIES.currentPassword, subject: [caller.id] },
      ]);
      const user = await findUserById(db, caller.id);
      if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
      const ok = user.passwordHash
        ? await verifyPassword(user.passwordHash, currentPassword)
        : false;
      if (!ok) throw new AppError('CURRENT_PASSWORD_INCORRECT', { field: 'currentPassword' });
      await permit.refund();
      const passwordHash = await hashPassword(password);
      const at = now();
      await db.transaction(async (tx) => {
        await updateUser(tx, user.id, { passwordHash });
        await spendResetTokensOfUser(tx, user.id, at);
        await revokeSessionsOfUser(tx, user.id, 'password_change', at, caller.sessionId);
        await insertActions(tx, [{ userId: user.id, type: 'password_changed', createdAt: at }]);
      });
    },
  };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
