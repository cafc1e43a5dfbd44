import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  RouteOptions,
} from 'fastify';
import { API_DOCS_PREFIX, isApiPath } from '../http';

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality for answers compressed per request. Quality 11 (zlib's default, right for the
 * build's precompressed files) takes milliseconds per kilobyte; 4 is about as fast as gzip and
 * still smaller.
 */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP_OPTIONS = { level: 6 };

const HUB_PREFIX = '/api/hubs/';

/** Types worth compressing: what the API answers in text (JSON, problem details, the docs). */
const COMPRESSIBLE_TYPE = /^(?:application\/(?:[\w.+-]+\+)?json|text\/)/i;

export type AnswerEncoding = 'br' | 'gzip';

/**
 * Which routes compress their answers: the API under /api (JSON answers, the OpenAPI document),
 * except the payment hub (its negotiate answer is tiny; the WebSocket is an upgrade outside
 * Fastify's routes) and the OpenAPI browser's static files under /api/docs (2.5 MB of a
 * developer page: 75 ms of brotli per request would hand anyone a CPU lever). The built web app
 * is precompressed at build time and served by `@fastify/static` (web-app.ts); the probes and
 * /.well-known files are small. Their routes get no compression hook at all, so they spend
 * nothing on it.
 */
export function compressesAnswers(url: string): boolean {
  return isApiPath(url) && !url.startsWith(HUB_PREFIX) && !url.startsWith(API_DOCS_PREFIX);
}

/**
 * The encoding to answer in for an Accept-Encoding header (RFC 9110 §12.5.3): the one the client
 * weighs highest of br and gzip (`x-gzip` is gzip, `*` stands for any not named), br on a tie;
 * null when it accepts neither (no header, `identity`, or both at q=0).
 */
export function answerEncoding(header: string | undefined): AnswerEncoding | null {
  if (!header) return null;
  let br: number | undefined;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const weight = Number(value);
        q = Number.isFinite(weight) ? weight : 0;
      }
    }
    const coding = name.trim().toLowerCase();
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gzip = q;
    else if (coding === '*') any = q;
  }
  const brQ = br ?? any ?? 0;
  const gzipQ = gzip ?? any ?? 0;
  if (brQ <= 0 && gzipQ <= 0) return null;
  return brQ >= gzipQ ? 'br' : 'gzip';
}

/** Adds Accept-Encoding to the answer's Vary (kept once, after what the route set). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined || vary === '') {
    reply.header('vary', 'Accept-Encoding');
    return;
  }
  const names = String(vary).toLowerCase();
  if (names === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/.test(names)) return;
  reply.header('vary', `${String(vary)}, Accept-Encoding`);
}

/**
 * Compresses one answer, br else gzip by Accept-Encoding, when it is text of at least 1 KiB
 * (issue 13). What is never compressed: answers under the threshold (small reads such as polls;
 * 304s and 204s, which have no body), answers that already carry a Content-Encoding, types that
 * are not text (receipt PDFs), and streams (the API sends none; they pass through untouched).
 * Answers at or over the threshold say `Vary: Accept-Encoding` whether compressed or not.
 */
const compressAnswer: onSendHookHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done,
) => {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    done(null, payload);
    return;
  }
  // A string's UTF-8 length is at most three times its length: most answers are decided here.
  if (payload.length * (typeof payload === 'string' ? 3 : 1) < COMPRESS_THRESHOLD_BYTES) {
    done(null, payload);
    return;
  }
  if (
    Buffer.byteLength(payload) < COMPRESS_THRESHOLD_BYTES ||
    reply.getHeader('content-encoding') !== undefined ||
    !COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? ''))
  ) {
    done(null, payload);
    return;
  }
  varyOnEncoding(reply);
  const encoding = answerEncoding(request.headers['accept-encoding']);
  if (encoding === null) {
    done(null, payload);
    return;
  }
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(payload, BROTLI_OPTIONS)
      : gzipSync(payload, GZIP_OPTIONS);
  reply.header('content-encoding', encoding);
  reply.header('content-length', String(compressed.length));
  done(null, compressed);
};

/**
 * Compression of dynamic answers (issue 13) on the routes `compressesAnswers` names: one onSend
 * hook on each, added as the route is. Must be registered before the routes. Request bodies are
 * not decompressed: the API takes small JSON forms, and a compressed one could expand far beyond
 * what was sent. (Our own hook rather than @fastify/compress: that plugin added an onRequest
 * hook and three header reads to every API request, a poll's included.)
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!compressesAnswers(route.url)) return;
    const hooks = route.onSend;
    route.onSend = hooks === undefined ? [compressAnswer] : [hooks, compressAnswer].flat();
  });
}
