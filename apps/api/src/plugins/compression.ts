import compress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { constants } from 'node:zlib';
import { API_DOCS_PREFIX, isApiPath } from '../http';

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const HUB_PREFIX = '/api/hubs/';

/** Types worth compressing: what the API answers in text (JSON, problem details, the docs). */
const COMPRESSIBLE_TYPE = /^(?:application\/(?:[\w.+-]+\+)?json|text\/)/i;

/**
 * Which routes compress their answers: the API under /api (JSON answers, the OpenAPI document),
 * except the payment hub (its negotiate answer is tiny; the WebSocket is an upgrade outside
 * Fastify's routes) and the OpenAPI browser's static files under /api/docs (2.5 MB of a
 * developer page: 75 ms of brotli per request would hand anyone a CPU lever). The built web app
 * is precompressed at build time and served by `@fastify/static` (web-app.ts); the probes and
 * /.well-known files are small.
 */
export function compressesAnswers(url: string): boolean {
  return isApiPath(url) && !url.startsWith(HUB_PREFIX) && !url.startsWith(API_DOCS_PREFIX);
}

/**
 * Compression of dynamic answers (issue 13) with `@fastify/compress` (issue 30, ADR 0074), on the
 * routes `compressesAnswers` names: br (quality 4, about as fast as gzip and smaller; 11 is for
 * the build's precompressed files) or gzip (level 6) by Accept-Encoding, text types only, from
 * 1 KiB, with `Vary: Accept-Encoding`. Other routes are left alone (`compress: false`), and no
 * request body is decompressed: the API takes small JSON forms, and a compressed one could expand
 * far beyond what was sent. Must be registered before the routes.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook (added below), which reads `compress`.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!compressesAnswers(route.url)) route.compress = false;
  });
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE_TYPE,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    globalDecompression: false,
  });
}
