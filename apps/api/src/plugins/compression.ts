import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { API_DOCS_PREFIX, isApiPath } from '../http';

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality for answers compressed per request. Quality 11 (zlib's default, right for the
 * build's precompressed files) takes milliseconds per kilobyte; 4 is about as fast as gzip and
 * still smaller.
 */
const DYNAMIC_BROTLI_QUALITY = 4;

const HUB_PREFIX = '/api/hubs/';

/**
 * Which routes compress their answers: the API under /api (JSON answers, the OpenAPI document),
 * except the payment hub (its negotiate answer is tiny; the WebSocket is an upgrade outside
 * Fastify's routes) and the OpenAPI browser's static files under /api/docs (2.5 MB of a
 * developer page: 75 ms of brotli per request would hand anyone a CPU lever). The built web app
 * is precompressed at build time and served by `@fastify/static` (web-app.ts); the probes and
 * /.well-known files are small. Their routes get no compression hooks at all, so they spend
 * nothing on it.
 */
export function compressesAnswers(url: string): boolean {
  return isApiPath(url) && !url.startsWith(HUB_PREFIX) && !url.startsWith(API_DOCS_PREFIX);
}

/**
 * Compression of dynamic answers (issue 13): br, else gzip, by Accept-Encoding, for answers of
 * at least 1 KiB. Must be registered before the routes (it hooks each route as it is added).
 *
 * What is never compressed: answers under the threshold (small reads such as polls; 304s and
 * 204s, which have no body), answers that already carry a Content-Encoding (the precompressed
 * app), types that are not text (receipt PDFs), and `text/event-stream`. Request bodies are not
 * decompressed: the API takes small JSON forms, and a compressed one could expand far beyond
 * what was sent.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Added before the plugin's own onRoute hook, so it runs first and the plugin skips the route.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.compress === undefined && !compressesAnswers(route.url)) route.compress = false;
  });
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    zlibOptions: { level: 6 },
  });
}
