import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendSerialized } from './http';

/**
 * A weak ETag of a polled resource: the customer (a device shared by two customers must not get
 * the other's 304), their change version and everything else the
 * answer depends on (language, page). Same version and same parts ⇒ same body.
 */
export function versionTag(resource: string, version: number, parts: readonly (string | number)[]) {
  return `W/"${resource}-${version}-${parts.join('-')}"`;
}

/** True when the request's If-None-Match names `etag` (or is `*`). */
export function matchesIfNoneMatch(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  // What a client nearly always sends: the tag it was given, as it was given.
  if (header === etag) return true;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = strip(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === wanted);
}

/**
 * Sets ETag and `Cache-Control: private, no-cache` and sends 304 (no body, no Content-Length)
 * when the client already has this version; returns true when it did (the route then returns
 * `reply`).
 */
export function answerNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
): boolean {
  if (!tagAndMatch(request, reply, etag, PRIVATE_REVALIDATE)) return false;
  void reply.code(304).send();
  return true;
}

/** Sets the ETag and caching headers; true when the client already has this version. */
function tagAndMatch(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  cache: { control: string; vary: string },
): boolean {
  reply.header('etag', etag);
  reply.header('cache-control', cache.control);
  reply.header('vary', cache.vary);
  return matchesIfNoneMatch(request, etag);
}

/**
 * Answers with a body kept in memory (db/reference-memory.ts, ADR 0057): its ETag and the given
 * Cache-Control, and 304 without a body when the client already has it.
 */
export function sendKept(
  request: FastifyRequest,
  reply: FastifyReply,
  kept: { body: string; etag: string },
  cache: { control: string; vary: string },
): FastifyReply {
  if (tagAndMatch(request, reply, kept.etag, cache)) return reply.code(304).send();
  return sendSerialized(reply, kept.body);
}

/** Reference data every customer may see: any cache may keep it, but must ask first. */
export const SHARED_REVALIDATE = { control: 'public, no-cache', vary: 'Accept-Language' };
/** The same data behind a login: only the customer's own device keeps it. */
export const PRIVATE_REVALIDATE = {
  control: 'private, no-cache',
  vary: 'Accept-Language, Authorization',
};
