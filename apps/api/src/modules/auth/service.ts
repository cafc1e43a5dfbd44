import type { FastifyBaseLogger } from 'fastify';
import { SIGNED_IN_DEVICES_PATH } from '@alda/contract/app-paths';
import { countryName } from '@alda/contract/format/country';
import { formatDateTime } from '@alda/contract/format/date';
import { formatDevice } from '@alda/contract/format/device';
import { normalizeEmail } from '@alda/contract/rules/email';
import type { Tokens, User } from '@alda/contract/schemas/auth';
import type { SignInDevice } from '@alda/contract/schemas/sessions';
import type { EmailMessage, EmailSender } from '../../adapters/email/email-sender';
import type { BackgroundTasks } from '../../background';
import type { AuthUser } from '../../plugins/auth';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { insertActions } from '../actions/log';
import { toUserDto } from '../users/dto';
import { findUserByEmail, findUserById } from '../users/records';
import { sessionDevice } from './devices';
import { newDeviceEmail } from './messages';

/** The e-mail about a new passkey (ADR 0097), composed as the auth module's other e-mails. */
export { newPasskeyEmail } from './messages';
import { dummyPasswordHash, verifyPassword } from './passwords';
import {
  claimRefreshToken,
  deviceHistory,
  findActiveSession,
  findRefreshTokenByHash,
  insertRefreshToken,
  insertSession,
  revokeSession,
  touchSession,
} from './repo';
import { POLICIES } from '../rate-limits/policies';
import type { LimitCheck, RateLimiter } from '../rate-limits/service';
import type { SessionMemory } from './session-memory';
import {
  hashRefreshToken,
  newRefreshToken,
  type AccessTokens,
  type VerifiedClaims,
} from './tokens';

export interface AuthServiceDeps {
  db: Db;
  accessTokens: AccessTokens;
  refreshTokenTtlS: number;
  now: () => Date;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  /**
   * Where an access token's session is checked: the instance's memory of sessions
   * (session-memory.ts, ADR 0057); by default a database read per check.
   */
  sessions?: Pick<SessionMemory, 'isActive' | 'knownActive'>;
  /**
   * Where the e-mail about a sign-in on a new device goes (ADR 0059); without it (unit tests)
   * the sign-in is only logged in the activity log.
   */
  alerts?: { email: EmailSender; background: BackgroundTasks; appUrl: string };
}

/** Who is asking, as far as HTTP tells: for sessions (user agent) and rate limits (address). */
export interface ClientMeta {
  userAgent: string | null;
  /** Client address (behind a proxy: as TRUST_PROXY resolves it). */
  ip: string;
  /** The device the app says it signs in from (sign-in calls only; ADR 0059). */
  device?: SignInDevice;
  /**
   * The country of the client's address as the edge named it (CLIENT_COUNTRY_HEADER; ISO 3166-1
   * alpha-2), or null/absent when unknown (sign-in calls only; ADR 0059).
   */
  country?: string | null;
}

/**
 * A session just started in the caller's transaction: its tokens, and the e-mail to send once
 * that transaction has committed when it was a sign-in on a new device. Hand it to
 * `signedIn` after the commit.
 */
export interface StartedSession {
  tokens: Tokens;
  newDeviceEmail: EmailMessage | null;
  userId: string;
}

/**
 * The e-mail login limits of an address and an account (docs/decisions/0021-rate-limits-and-lockout.md).
 * The account is named by its normalised e-mail, known or not, so limits behave the same for
 * addresses without an account.
 */
export function emailLoginChecks(normalizedEmail: string, ip: string): LimitCheck[] {
  return [
    { policy: POLICIES.loginIpAccount, subject: [ip, normalizedEmail] },
    { policy: POLICIES.loginAccount, subject: [normalizedEmail] },
    { policy: POLICIES.loginIp, subject: [ip] },
  ];
}

/**
 * Sign-in sessions (docs/decisions/0012-token-sessions.md): a short-lived JWT access token bound
 * to a session row, and an opaque refresh token that is rotated on every use. Presenting a
 * refresh token that was already rotated revokes the whole session.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const { db, accessTokens, now } = deps;
  const sessions = deps.sessions ?? {
    isActive: async (sessionId: string, userId: string) =>
      (await findActiveSession(db, sessionId))?.userId === userId,
    knownActive: () => undefined,
  };

  const userOf = (claims: VerifiedClaims): AuthUser => ({
    id: claims.sub,
    sessionId: claims.sid,
    tokenExpiresAt: claims.expiresAt,
  });

  /**
   * The verdict on an access token from the instance's memory alone (a token verified before,
   * a session known): the caller, null when refused, undefined when only the signature check or
   * the database can tell. A poll repeats the same token every minute, so this is nearly every
   * request, and it costs no promise (issue 13).
   */
  function authenticateKnown(accessToken: string): AuthUser | null | undefined {
    const claims = accessTokens.known(accessToken, now());
    if (claims === undefined) return undefined;
    if (claims === null) return null;
    const active = sessions.knownActive(claims.sid, claims.sub);
    if (active === undefined) return undefined;
    return active ? userOf(claims) : null;
  }

  /** Issues the access token and a fresh refresh token for a session. */
  async function issueTokens(
    executor: Db,
    session: { id: string; userId: string },
    parentId: string | null,
    at: Date,
  ): Promise<Tokens> {
    const refreshToken = newRefreshToken();
    await insertRefreshToken(executor, {
      sessionId: session.id,
      tokenHash: hashRefreshToken(refreshToken),
      parentId,
      expiresAt: new Date(at.getTime() + deps.refreshTokenTtlS * 1000),
      now: at,
    });
    const accessToken = await accessTokens.sign({ sub: session.userId, sid: session.id }, at);
    return { accessToken, refreshToken, expiresIn: accessTokens.ttlSeconds };
  }

  /**
   * A new session for the user and its first token pair; run inside the caller's transaction.
   * A sign-in on a device the user has not signed in on before — when they have signed in on
   * a known device before at all, so neither registration nor the first sign-in after ADR 0059
   * counts — is written to their activity log here and e-mailed by `signedIn` after the commit.
   */
  async function startSession(
    executor: Db,
    userId: string,
    meta: Pick<ClientMeta, 'userAgent' | 'device' | 'country'>,
    at: Date,
  ): Promise<StartedSession> {
    const device = sessionDevice(meta.device, meta.userAgent);
    const history = await deviceHistory(executor, userId, device.key);
    const session = await insertSession(executor, {
      userId,
      userAgent: meta.userAgent,
      now: at,
      device,
      country: meta.country ?? null,
    });
    const tokens = await issueTokens(executor, session, null, at);
    if (!history.anyKnownDevice || history.seenBefore) {
      return { tokens, newDeviceEmail: null, userId };
    }
    const shown = { name: device.name, platform: device.platform, model: device.model };
    await insertActions(executor, [
      { userId, type: 'signed_in_new_device', payload: { device: shown }, createdAt: at },
    ]);
    const user = deps.alerts ? await findUserById(executor, userId) : undefined;
    const email =
      deps.alerts && user
        ? newDeviceEmail(user.locale, {
            to: user.email,
            firstname: user.firstname,
            device: formatDevice(shown, user.locale),
            at: formatDateTime(at),
            // Only what the edge said; "unknown" otherwise, never a guess (ADR 0059).
            country: countryName(meta.country, user.locale),
            link: `${deps.alerts.appUrl}${SIGNED_IN_DEVICES_PATH}`,
          })
        : null;
    return { tokens, newDeviceEmail: email, userId };
  }

  /**
   * After the transaction of `startSession` has committed: sends the new-device e-mail in the
   * background (a slow mail server must not hold up the sign-in) and answers the tokens.
   */
  function signedIn(started: StartedSession): Tokens {
    const message = started.newDeviceEmail;
    if (message && deps.alerts) {
      const { email } = deps.alerts;
      deps.alerts.background.run('new device e-mail', async () => {
        await email.send(message);
        deps.log.info({ userId: started.userId, via: email.kind }, 'new device e-mail sent');
      });
    }
    return started.tokens;
  }

  return {
    startSession,
    signedIn,

    /**
     * E-mail login (SPEC §7 POST /auth/email-login). Unknown address and wrong password give the
     * same INVALID_CREDENTIALS after the same amount of work, so neither the answer nor its
     * timing reveals who has an account. Attempts are counted per address, account and both
     * before the password is checked; a success takes its attempt back and clears the count of
     * this address against this account.
     */
    async loginWithEmail(email: string, password: string, meta: ClientMeta): Promise<Tokens> {
      const normalized = normalizeEmail(email);
      const checks = emailLoginChecks(normalized, meta.ip);
      const permit = await deps.limiter.consume(checks);
      const user = await findUserByEmail(db, normalized);
      const hash = user?.passwordHash ?? (await dummyPasswordHash());
      const passwordOk = await verifyPassword(hash, password);
      if (!user || !user.passwordHash || !passwordOk) {
        throw new AppError('INVALID_CREDENTIALS', {
          detail: user ? 'wrong password' : 'unknown e-mail',
        });
      }
      await permit.refund();
      await deps.limiter.reset(checks.slice(0, 1));
      const at = now();
      return signedIn(await db.transaction((tx) => startSession(tx, user.id, meta, at)));
    },

    /**
     * Refresh (SPEC §7 POST /auth/refresh-token): the presented token is spent and a new pair is
     * returned. A spent token presented again means two parties hold it; the session is revoked
     * so both the thief and the customer must sign in again.
     */
    async refresh(refreshToken: string): Promise<Tokens> {
      const tokenHash = hashRefreshToken(refreshToken);
      const at = now();
      const outcome = await db.transaction(async (tx) => {
        const claimed = await claimRefreshToken(tx, tokenHash, at);
        if (!claimed) {
          const known = await findRefreshTokenByHash(tx, tokenHash);
          if (known?.usedAt) {
            await revokeSession(tx, known.sessionId, 'reuse', at);
            return { kind: 'reused' as const, sessionId: known.sessionId };
          }
          return { kind: 'invalid' as const };
        }
        const session = await findActiveSession(tx, claimed.sessionId);
        if (!session) return { kind: 'invalid' as const };
        await touchSession(tx, session.id, at);
        return { kind: 'ok' as const, tokens: await issueTokens(tx, session, claimed.id, at) };
      });
      if (outcome.kind === 'reused') {
        deps.log.warn(
          { sessionId: outcome.sessionId },
          'refresh token reuse detected; session revoked',
        );
      }
      if (outcome.kind !== 'ok')
        throw new AppError('UNAUTHORIZED', { detail: `refresh token ${outcome.kind}` });
      return outcome.tokens;
    },

    /**
     * Logout: revokes the session the refresh token belongs to. Unknown or already revoked tokens
     * are accepted silently; the client is clearing its tokens either way.
     */
    async logout(refreshToken: string): Promise<void> {
      const known = await findRefreshTokenByHash(db, hashRefreshToken(refreshToken));
      if (known) await revokeSession(db, known.sessionId, 'logout', now());
    },

    /**
     * Checks a bearer access token: a valid signature and expiry, and a session that is still
     * active (so logout and reuse detection end access tokens at once, not after 15 minutes;
     * on other instances within the NOTIFY's delay, ADR 0057).
     */
    async authenticate(accessToken: string): Promise<AuthUser | null> {
      const known = authenticateKnown(accessToken);
      if (known !== undefined) return known;
      const claims = await accessTokens.verify(accessToken, now());
      if (!claims) return null;
      if (!(await sessions.isActive(claims.sid, claims.sub))) return null;
      return userOf(claims);
    },

    authenticateKnown,

    /** A session that is not signed out (its device, its sign-in time), else undefined. */
    activeSession(sessionId: string) {
      return findActiveSession(db, sessionId);
    },

    /** The signed-in user (SPEC §7 GET /auth/me). */
    async me(userId: string): Promise<User> {
      const row = await findUserById(db, userId);
      // The session row cascades with the user, so this only happens in a race with deletion.
      if (!row) throw new AppError('UNAUTHORIZED', { detail: 'user of an active session is gone' });
      return toUserDto(row);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
