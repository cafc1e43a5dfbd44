import type { FastifyReply, FastifyRequest } from 'fastify';

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
  reply.header('etag', etag);
  reply.header('cache-control', 'private, no-cache');
  reply.header('vary', 'Accept-Language, Authorization');
  if (!matchesIfNoneMatch(request, etag)) return false;
  void reply.code(304).send();
  return true;
}
