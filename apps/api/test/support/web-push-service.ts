import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from 'jose';

/*
 * A push service as a browser vendor runs one (RFC 8030), for the tests: HTTPS with a
 * certificate made for this run, the VAPID check of RFC 8292 (the JWT's signature with the `k`
 * key, its audience, expiry and subject), and the payload decrypted as the browser would (RFC
 * 8291, aes128gcm) with the subscription's private key — written here from the RFCs, not with
 * the library that encrypts, so the two readings are independent.
 */

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** A browser's push subscription: its P-256 key pair and auth secret (RFC 8291 §2). */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
    /** Decrypts an aes128gcm body (RFC 8188 with the RFC 8291 key derivation). */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idlen = body.readUInt8(20);
      const asPublic = body.subarray(21, 21 + idlen);
      const ciphertext = body.subarray(21 + idlen);
      const uaPublic = ecdh.getPublicKey();
      const ecdhSecret = ecdh.computeSecret(asPublic);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
      const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const plain = Buffer.concat([
        decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
        decipher.final(),
      ]);
      // The last record: the content, the delimiter 0x02, then zero padding.
      let end = plain.length - 1;
      while (end >= 0 && plain[end] === 0) end -= 1;
      if (plain[end] !== 2) throw new Error('not the last record');
      return plain.subarray(0, end).toString('utf8');
    },
  };
}

export type BrowserSubscription = ReturnType<typeof browserSubscription>;

export interface ReceivedPush {
  /** The subscription id of the endpoint's path (`/push/<id>`). */
  id: string;
  headers: Record<string, string | string[] | undefined>;
  /** The VAPID JWT's claims, verified; its `k` key. */
  claims: JWTPayload;
  vapidKey: string;
  body: Buffer;
  /** What the service answered. */
  status: number;
}

/** Why a request was refused by the service's checks (a test asserts none were). */
export interface RefusedPush {
  id: string;
  reason: string;
}

/**
 * Starts the push service. `answer(id)` picks the status for a push to `/push/<id>` (201 by
 * default; 410 gone, 429 with Retry-After, 500), `'hang'` to never answer, or `'reset'` to read
 * the push and then drop the connection without an answer.
 */
export async function startPushService(
  tls: { key: string; cert: string },
  options: { subject: string; answer?: (id: string) => number | 'hang' | 'reset' },
) {
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  const hanging = new Set<ServerResponse>();
  let origin = '';
  const server: Server = createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1] ?? '';
        const refuse = (status: number, reason: string) => {
          refused.push({ id, reason });
          response.writeHead(status).end(reason);
        };
        if (request.method !== 'POST' || !id) return refuse(404, 'no such subscription');
        if (request.headers['content-encoding'] !== 'aes128gcm') {
          return refuse(400, 'content-encoding must be aes128gcm');
        }
        const ttl = Number(request.headers.ttl);
        if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'TTL missing');
        // RFC 8292 §3: Authorization: vapid t=<JWT>, k=<public key>.
        const authorization = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(
          String(request.headers.authorization ?? ''),
        );
        if (!authorization) return refuse(401, 'no vapid authorization');
        const [, token = '', k = ''] = authorization;
        let claims: JWTPayload;
        try {
          if (decodeProtectedHeader(token).alg !== 'ES256') throw new Error('alg must be ES256');
          const point = Buffer.from(k, 'base64url');
          if (point.length !== 65 || point[0] !== 4) throw new Error('k is no P-256 point');
          const key = await importJWK(
            {
              kty: 'EC',
              crv: 'P-256',
              x: b64url(point.subarray(1, 33)),
              y: b64url(point.subarray(33)),
            },
            'ES256',
          );
          ({ payload: claims } = await jwtVerify(token, key, { audience: origin }));
          const now = Date.now() / 1000;
          if (typeof claims.exp !== 'number' || claims.exp > now + 24 * 3600) {
            throw new Error('exp must be within 24 hours (RFC 8292 §2)');
          }
          if (claims.sub !== options.subject) throw new Error(`sub ${String(claims.sub)}`);
        } catch (error) {
          return refuse(403, `vapid: ${(error as Error).message}`);
        }
        const answer = options.answer?.(id) ?? 201;
        received.push({
          id,
          headers: request.headers,
          claims,
          vapidKey: k,
          body: Buffer.concat(chunks),
          status: typeof answer === 'number' ? answer : 0,
        });
        if (answer === 'reset') {
          response.socket?.destroy();
          return;
        }
        if (answer === 'hang') {
          hanging.add(response);
          return;
        }
        response.writeHead(answer, answer === 429 ? { 'retry-after': '120' } : {});
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    refused,
    endpoint: (id: string) => `${origin}/push/${id}`,
    async stop() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
