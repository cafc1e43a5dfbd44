import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * The connection token of the negotiate answer (TransportProtocols.md "Version 1"): what the
 * client puts in `?id=` when it opens the WebSocket. Ours is signed rather than stored, so a
 * negotiate answered by one instance works on another behind a plain load balancer (no sticky
 * sessions); it names the user it was issued to and expires after `ttlMs`. Single use is
 * enforced per instance (the ids of used tokens are kept until they expire); a token replayed on
 * another instance still needs that user's access token, so it opens nothing the attacker could
 * not open already (docs/decisions/0051-payment-hub.md).
 */
export interface ConnectionTokens {
  issue(userId: string): { connectionId: string; connectionToken: string };
  /** The connection the token opens, or null when forged, expired, used or someone else's. */
  redeem(token: string, userId: string): { connectionId: string } | null;
}

interface TokenBody {
  /** connection id */
  c: string;
  /** user id */
  u: string;
  /** expires at, ms since epoch */
  e: number;
  /** nonce, so two tokens for one connection id never collide */
  n: string;
}

export function createConnectionTokens(options: {
  key: Uint8Array;
  ttlMs: number;
  now?: () => number;
}): ConnectionTokens {
  const now = options.now ?? Date.now;
  const used = new Map<string, number>();
  const sign = (body: string) =>
    createHmac('sha256', options.key).update(body).digest().toString('base64url');

  function forget() {
    const current = now();
    for (const [id, expiresAt] of used) if (expiresAt < current) used.delete(id);
  }

  return {
    issue(userId) {
      const connectionId = randomUUID();
      const body: TokenBody = {
        c: connectionId,
        u: userId,
        e: now() + options.ttlMs,
        n: randomBytes(9).toString('base64url'),
      };
      const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
      return { connectionId, connectionToken: `${encoded}.${sign(encoded)}` };
    },
    redeem(token, userId) {
      const [encoded, signature, extra] = token.split('.');
      if (!encoded || !signature || extra !== undefined) return null;
      const expected = Buffer.from(sign(encoded));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      let body: TokenBody;
      try {
        body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as TokenBody;
      } catch {
        return null;
      }
      if (typeof body.c !== 'string' || body.u !== userId || !(body.e >= now())) return null;
      forget();
      if (used.has(body.c)) return null;
      used.set(body.c, body.e);
      return { connectionId: body.c };
    },
  };
}
