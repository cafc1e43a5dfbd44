import type { FastifyBaseLogger } from 'fastify';
import {
  SIM_SWAP_MAX_AGE_DEFAULT_H,
  type CamaraErrorCode,
  type SimSwapCheckResponse,
  type SimSwapDateResponse,
} from '@alda/contract/schemas/camara';
import type { Db } from '../../db/client';
import type { PartnerCaller, PartnerService } from '../partners/service';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { insertCall, liveLineSim } from './repo';

/*
 * CAMARA SIM Swap v2 (issue 32; camaraproject/SimSwap r2.x): may a bank trust an SMS code sent
 * to this number, or was its SIM changed lately? Partners call it with a client-credentials
 * token (modules/partners) of scope `sim-swap` (or the operation's own scope).
 *
 * - latestSimChange: the live line's `sim_changed_at`; for a SIM never changed, the line's
 *   activation (`activated_at`, else `created_at`) — CAMARA counts a new subscription as a SIM
 *   swap. We keep the dates for the life of the line, so no `monitoredPeriod` is given.
 * - swapped: that date lies within `maxAge` hours before now (inclusive).
 * - A number without a live line of ours: 404 IDENTIFIER_NOT_FOUND.
 * - Every call that got past authentication is written to `partner_calls`, refused ones too.
 */

export type SimSwapOperation = 'check' | 'retrieve-date';

/** A refusal with its CAMARA status and code (the routes' error handler sends the body). */
export class CamaraFailure extends Error {
  override name = 'CamaraFailure';
  constructor(
    readonly status: number,
    readonly code: CamaraErrorCode,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export interface SimSwapServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  partners: Pick<PartnerService, 'authenticate'>;
  limiter: RateLimiter;
  /** PARTNER_RATE_LIMIT_PER_MIN */
  ratePerMin: number;
}

/** `+298` and 6 digits → the 6 digits; any other E.164 number is not ours (null). */
export function ourNumber(phoneNumber: string): string | null {
  const match = /^\+298(\d{6})$/.exec(phoneNumber);
  return match?.[1] ?? null;
}

export function createSimSwapService(deps: SimSwapServiceDeps) {
  const { db, now } = deps;
  const policy = { ...POLICIES.partnerCalls, limit: deps.ratePerMin };

  async function latestSimChange(phoneNumber: string | undefined): Promise<Date> {
    if (phoneNumber === undefined)
      throw new CamaraFailure(422, 'MISSING_IDENTIFIER', 'The device cannot be identified.');
    const msisdn = ourNumber(phoneNumber);
    const line = msisdn === null ? undefined : await liveLineSim(db, msisdn);
    if (!line) throw new CamaraFailure(404, 'IDENTIFIER_NOT_FOUND', 'Device identifier not found.');
    return line.simChangedAt ?? line.activatedAt ?? line.createdAt;
  }

  return {
    /** 401 UNAUTHENTICATED unless the token is live. */
    async authenticate(token: string | undefined): Promise<PartnerCaller> {
      const caller = token ? await deps.partners.authenticate(token) : null;
      if (!caller)
        throw new CamaraFailure(
          401,
          'UNAUTHENTICATED',
          'Request not authenticated due to missing, invalid, or expired credentials. A new authentication is required.',
        );
      return caller;
    },

    /** The partner's calls per minute (counted in the database), then the operation's scope. */
    async admit(caller: PartnerCaller, operation: SimSwapOperation): Promise<void> {
      const outcome = await deps.limiter.tryConsume([{ policy, subject: [caller.partnerId] }]);
      if (!outcome.allowed)
        throw new CamaraFailure(
          429,
          'TOO_MANY_REQUESTS',
          'Rejected due to request rate limit overpassed.',
          outcome.retryAfter,
        );
      if (!caller.scopes.some((scope) => scope === 'sim-swap' || scope === `sim-swap:${operation}`))
        throw new CamaraFailure(
          403,
          'PERMISSION_DENIED',
          'Client does not have sufficient permissions to perform this action.',
        );
    },

    async check(
      phoneNumber: string | undefined,
      maxAge: number | undefined,
    ): Promise<SimSwapCheckResponse> {
      const latest = await latestSimChange(phoneNumber);
      const hours = maxAge ?? SIM_SWAP_MAX_AGE_DEFAULT_H;
      const since = now().getTime() - hours * 3600 * 1000;
      return { swapped: latest.getTime() >= since };
    },

    async retrieveDate(phoneNumber: string | undefined): Promise<SimSwapDateResponse> {
      const latest = await latestSimChange(phoneNumber);
      return { latestSimChange: latest.toISOString() };
    },

    /** The audit row of one call (partner_calls). */
    async record(call: {
      partnerId: string;
      operation: SimSwapOperation;
      phoneNumber: unknown;
      status: number;
      result: string;
    }): Promise<void> {
      const msisdn = typeof call.phoneNumber === 'string' ? ourNumber(call.phoneNumber) : null;
      await insertCall(db, {
        partnerId: call.partnerId,
        operation: call.operation,
        msisdn,
        status: call.status,
        result: call.result.slice(0, 200),
        createdAt: now(),
      });
    },
  };
}

export type SimSwapService = ReturnType<typeof createSimSwapService>;
