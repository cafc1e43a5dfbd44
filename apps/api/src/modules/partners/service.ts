import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  isPartnerScope,
  type OauthErrorCode,
  type OauthTokenResponse,
} from '@alda/contract/schemas/camara';
import type { StaffPartner, StaffPartnerCreated } from '@alda/contract/schemas/staff-partners';
import type { Db } from '../../db/client';
import type { PartnerClientRow } from '../../db/schema/number-protection';
import { AppError } from '../../errors';
import { recordAudit } from '../operator/audit';
import { sha256 } from '../staff/secrets';
import {
  clientByClientId,
  disableClient,
  insertClient,
  insertToken,
  listClients,
  liveToken,
  type ClientWithCalls,
} from './repo';

/*
 * Partner clients of the CAMARA APIs (issue 32, docs/decisions/0076-number-protection.md): banks
 * that ask whether a number's SIM was changed lately, with OAuth 2.0 client credentials
 * (RFC 6749 §4.4). Made by an admin in the console or with `npm run operator -- partner add`.
 *
 * - client_id `alda_` + 24 hex digits (96 random bits; not a secret, but not guessable either);
 * - client secret 256 random bits (base64url), shown once, kept as SHA-256 and compared in
 *   constant time — a digest is enough for a secret of that strength (no password stretching);
 * - access tokens `alda_pt_` + 256 random bits, opaque, SHA-256 stored with their scopes and
 *   expiry (PARTNER_TOKEN_TTL_S); a disabled client's tokens stop working at once.
 */

export interface PartnerActor {
  /** `staff:<email>` (console) or the operator's name (command line). */
  actor: string;
  staffUserId: string | null;
}

export interface PartnerServiceDeps {
  db: Db;
  now: () => Date;
  tokenTtlS: number;
}

/** A failed token request, as RFC 6749 §5.2 names it. */
export class OauthFailure extends Error {
  override name = 'OauthFailure';
  constructor(
    readonly error: OauthErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

/** Who called with a partner token (the CAMARA routes' caller). */
export interface PartnerCaller {
  partnerId: string;
  clientId: string;
  name: string;
  scopes: string[];
}

const digestOf = (secret: string) => Buffer.from(sha256(secret), 'base64url');
/** Compared against when the client is unknown, so both failures take the same time. */
const NO_CLIENT_DIGEST = digestOf(randomBytes(32).toString('base64url'));

export function partnerDto(row: ClientWithCalls): StaffPartner {
  const { client } = row;
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    scopes: client.scopes,
    createdBy: client.createdBy,
    createdAt: client.createdAt.toISOString(),
    disabledAt: client.disabledAt?.toISOString() ?? null,
    lastCallAt: row.lastCallAt?.toISOString() ?? null,
    callCount: row.callCount,
  };
}

export function createPartnerService({ db, now, tokenTtlS }: PartnerServiceDeps) {
  async function one(clientId: string): Promise<StaffPartner> {
    const [row] = await listClients(db, clientId);
    if (!row) throw new AppError('NOT_FOUND', { detail: 'no such partner client' });
    return partnerDto(row);
  }

  return {
    async list(): Promise<StaffPartner[]> {
      return (await listClients(db)).map(partnerDto);
    },

    /** A new client; its secret is in the answer and nowhere else. Audited `partner.create`. */
    async create(
      input: { name: string; scopes: readonly string[] },
      who: PartnerActor,
    ): Promise<StaffPartnerCreated> {
      const scopes = [...new Set(input.scopes)];
      const unknown = scopes.filter((scope) => !isPartnerScope(scope));
      if (unknown.length > 0 || scopes.length === 0)
        throw new AppError('VALIDATION_FAILED', {
          field: 'scopes',
          detail: `unknown scopes ${unknown.join(',')}`,
        });
      const name = input.name.trim();
      if (name.length === 0 || name.length > 100)
        throw new AppError('VALIDATION_FAILED', { field: 'name', detail: 'name 1-100' });
      const clientSecret = randomBytes(32).toString('base64url');
      const at = now();
      const client = await db.transaction(async (tx) => {
        const row = await insertClient(tx, {
          clientId: `alda_${randomBytes(12).toString('hex')}`,
          name,
          secretHash: sha256(clientSecret),
          scopes,
          createdBy: who.actor,
          createdAt: at,
        });
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.staffUserId,
          kind: 'change',
          action: 'partner.create',
          targetType: 'partner',
          targetId: row.clientId,
          details: { name, scopes },
          at,
        });
        return row;
      });
      return {
        partner: partnerDto({ client, lastCallAt: null, callCount: 0 }),
        clientSecret,
      };
    },

    /** Disables a client: no new tokens, and its tokens stop working. Audited `partner.disable`. */
    async disable(clientId: string, reason: string, who: PartnerActor): Promise<StaffPartner> {
      await db.transaction(async (tx) => {
        const before = await clientByClientId(tx, clientId);
        if (!before) throw new AppError('NOT_FOUND', { detail: 'no such partner client' });
        if (before.disabledAt)
          throw new AppError('STAFF_ACTION_NOT_ALLOWED', { detail: 'already disabled' });
        const at = now();
        await disableClient(tx, clientId, at);
        await recordAudit(tx, {
          actor: who.actor,
          staffUserId: who.staffUserId,
          kind: 'change',
          action: 'partner.disable',
          targetType: 'partner',
          targetId: clientId,
          reason,
          details: { name: before.name },
          at,
        });
      });
      return one(clientId);
    },

    /**
     * RFC 6749 §4.4: the client's credentials and the scopes asked for (default: all the
     * client's). Throws {@link OauthFailure}.
     */
    async issueToken(
      clientId: string,
      clientSecret: string,
      scope: string | undefined,
    ): Promise<OauthTokenResponse> {
      const client: PartnerClientRow | undefined =
        clientId.length <= 100 ? await clientByClientId(db, clientId) : undefined;
      const given = digestOf(clientSecret);
      const expected = client ? Buffer.from(client.secretHash, 'base64url') : NO_CLIENT_DIGEST;
      const secretOk = expected.length === given.length && timingSafeEqual(expected, given);
      if (!client || !secretOk || client.disabledAt)
        throw new OauthFailure('invalid_client', 'Client authentication failed.');
      const asked =
        scope === undefined || scope.trim() === ''
          ? client.scopes
          : [...new Set(scope.trim().split(/ +/))];
      if (asked.some((s) => !client.scopes.includes(s)))
        throw new OauthFailure(
          'invalid_scope',
          'The requested scope is invalid, unknown, or exceeds what the client was granted.',
        );
      const token = `alda_pt_${randomBytes(32).toString('base64url')}`;
      const at = now();
      await insertToken(db, {
        partnerId: client.id,
        tokenHash: sha256(token),
        scopes: asked,
        createdAt: at,
        expiresAt: new Date(at.getTime() + tokenTtlS * 1000),
      });
      return {
        access_token: token,
        token_type: 'Bearer',
        expires_in: tokenTtlS,
        scope: asked.join(' '),
      };
    },

    /** The caller of a bearer token, or null (unknown, expired, or its client disabled). */
    async authenticate(token: string): Promise<PartnerCaller | null> {
      if (!token.startsWith('alda_pt_') || token.length > 200) return null;
      return (await liveToken(db, sha256(token), now())) ?? null;
    },
  };
}

export type PartnerService = ReturnType<typeof createPartnerService>;
