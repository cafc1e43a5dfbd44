import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { matchesIfNoneMatch } from '../../etag';

/*
 * The ETag of a staff answer the console polls (every 5 s): a hash of the data, and 304 when the
 * console sends it back in If-None-Match. Staff answers stay `no-store` (staff-auth.ts): the
 * console keeps the last answer itself (apps/console/src/shared/api.ts).
 */

/** The 304 of a polled route's schema. */
export const notModified = z.null().describe('Not modified: the answer is as in If-None-Match');

/** Sets the answer's ETag; true when the request already has it (the route then sends 304). */
export function unchangedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  data: unknown,
): boolean {
  const tag = `W/"${createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', tag);
  return matchesIfNoneMatch(request, tag);
}
