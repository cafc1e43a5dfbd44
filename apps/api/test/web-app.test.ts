import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { isCompressible, MIN_BYTES, precompressDir } from '../../web/precompress';
import { compressesAnswers, COMPRESS_THRESHOLD_BYTES } from '../src/plugins/compression';
import { createTestApp, LogCapture, parse, type TestApp } from './helper';

/** Like Vite's: the entry, the preloaded chunks and the stylesheet (over 1 KiB, as a real one). */
const INDEX_HTML = [
  '<!doctype html><html lang="fo"><head><meta charset="UTF-8" /><title>Alda</title>',
  '<script type="module" crossorigin src="/assets/index-3f9a1c2b.js"></script>',
  ...Array.from(
    { length: 24 },
    (_, i) => `<link rel="modulepreload" crossorigin href="/assets/chunk-${i}-5e1d0c9a.js">`,
  ),
  '<link rel="stylesheet" crossorigin href="/assets/index-77aa00ff.css">',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

/** A bundle that compresses like real code (repetitive), well over 1 KiB. */
const ENTRY_JS = Array.from(
  { length: 200 },
  (_, i) => `export const label${i} = t("screen.label.${i}", { count: ${i} });`,
).join('\n');
const STYLES = Array.from({ length: 100 }, (_, i) => `.p-${i}{padding:${i / 4}rem}`).join('');
/** Under MIN_BYTES: served as it is, never compressed, whatever the browser accepts. */
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';

/** The service worker the web build writes at the root (issue 16 item 4, ADR 0069). */
const SERVICE_WORKER = `self.addEventListener('fetch', () => {});\n`;

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** What Chrome sends. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

/** The body as the browser sees it once it has undone the Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.body;
}

function varyNames(res: LightMyRequestResponse): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

/** A miniature Vite build, precompressed by the build step itself. */
async function writeWebDist(): Promise<string> {
  const webDist = await mkdtemp(path.join(os.tmpdir(), 'alda-web-dist-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDist, 'assets', 'index-3f9a1c2b.js'), ENTRY_JS);
  await writeFile(path.join(webDist, 'assets', 'index-77aa00ff.css'), STYLES);
  await writeFile(path.join(webDist, 'assets', 'index-3f9a1c2b.js.map'), '{"version":3}');
  await writeFile(path.join(webDist, 'favicon.svg'), FAVICON);
  await writeFile(path.join(webDist, 'sw.js'), SERVICE_WORKER);
  await precompressDir(webDist);
  return webDist;
}

describe('serving the built web app (WEB_DIST)', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    // index.html, hashed bundles under assets/, a public file and a map; .br/.gz next to them.
    webDist = await writeWebDist();
    t = await createTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, accept?: string) =>
    t.app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });

  it('issue 44: /metrics without METRICS_TOKEN is not found, not the app (a scraper or a person sees why)', async () => {
    for (const accept of [HTML_ACCEPT, undefined]) {
      const res = await get('/metrics', accept);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
    }
  });

  it('serves index.html at / with Cache-Control: no-cache', async () => {
    const res = await get('/', HTML_ACCEPT);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX_HTML);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('serves hashed assets with a one-year immutable cache', async () => {
    const js = await get('/assets/index-3f9a1c2b.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await get('/assets/index-77aa00ff.css');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // issue 13: a CSP governs documents only; the hardening headers stay on every file.
    expect(js.headers['content-security-policy']).toBeUndefined();
    expect(js.headers['x-content-type-options']).toBe('nosniff');
  });

  it('revalidates files outside assets/ (their names do not change with their content)', async () => {
    const res = await get('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('issue 16.4: serves the service worker at the root, revalidated every time (a new deploy is picked up) and allowed as a worker', async () => {
    const res = await get('/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe(SERVICE_WORKER);
    // Never the year-long cache of the hashed files: the browser must see a new sw.js at once.
    expect(res.headers['cache-control']).toBe('no-cache');
    // The worker's own CSP: it may be a worker of this origin and fetch from it.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toMatch(/connect-src 'self'/);
  });

  it.each([
    '/menu/treytir',
    '/rita-inn/vid-telduposti',
    '/min-brukari/gjaldsavtala',
    '/some/unknown/page',
  ])(
    'falls back to index.html for the client route %s (SPEC §2; the SPA redirects unknown paths home)',
    async (url) => {
      const res = await get(url, HTML_ACCEPT);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX_HTML);
    },
  );

  it.each([
    ['/', { accept: '*/*', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }],
    [
      '/',
      { accept: '*/*', 'accept-encoding': 'gzip, deflate, br, zstd', 'sec-fetch-mode': 'cors' },
    ],
    ['/', {}],
    ['/menu/treytir', { accept: '*/*', 'sec-fetch-mode': 'cors' }],
  ])(
    'issue 29.7: a plain fetch(%j) — no text/html in Accept — gets the app’s HTML too',
    async (url, headers) => {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res)).toBe(INDEX_HTML);
    },
  );

  it('does not answer a missing asset with index.html (a broken bundle must fail loudly)', async () => {
    const res = await get('/assets/index-deadbeef.js', '*/*');
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBeUndefined();
    expect(parse(errorEnvelope, res).error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('keeps unknown /api paths as JSON 404s even for a browser navigation', async () => {
    const res = await get('/api/unknown', HTML_ACCEPT);
    expect(res.statusCode).toBe(404);
    expect(parse(errorEnvelope, res).error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('does not publish source maps', async () => {
    const res = await get('/assets/index-3f9a1c2b.js.map', '*/*');
    expect(res.statusCode).toBe(404);
  });

  it('does not fall back for POST', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/menu',
      headers: { accept: HTML_ACCEPT },
    });
    expect(res.statusCode).toBe(404);
  });

  it('still serves the API next to the app', async () => {
    expect((await get('/healthz')).statusCode).toBe(200);
    expect((await get('/api/openapi.json')).statusCode).toBe(200);
  });
});

describe('issue 13: compression and caching of the built app', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = await writeWebDist();
    t = await createTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('issue 13: sends the precompressed brotli copy when the browser accepts br', async () => {
    const res = await get('/assets/index-3f9a1c2b.js', { 'accept-encoding': BROWSER_ENCODINGS });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varyNames(res)).toContain('accept-encoding');
    // The file written by the build step, byte for byte (not compressed again on the way out).
    const br = await readFile(path.join(webDist, 'assets', 'index-3f9a1c2b.js.br'));
    expect(res.rawPayload.equals(br)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(br.length);
    expect(decoded(res)).toBe(ENTRY_JS);
  });

  it.each([
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['*', 'gzip'],
  ])(
    'issue 13: sends the gzip copy for Accept-Encoding "%s" (br not accepted or preferred less)',
    async (acceptEncoding, expected) => {
      const res = await get('/assets/index-77aa00ff.css', { 'accept-encoding': acceptEncoding });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toMatch(/text\/css/);
      expect(varyNames(res)).toContain('accept-encoding');
      expect(decoded(res)).toBe(STYLES);
    },
  );

  it.each([undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate', 'zstd'])(
    'issue 13: sends the file itself, with Vary: Accept-Encoding, for Accept-Encoding %s',
    async (acceptEncoding) => {
      const res = await get(
        '/assets/index-3f9a1c2b.js',
        acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(varyNames(res)).toContain('accept-encoding');
      expect(res.body).toBe(ENTRY_JS);
    },
  );

  it('issue 13: a file under 1 KiB has no compressed copy and is not compressed per request', async () => {
    const res = await get('/favicon.svg', { 'accept-encoding': BROWSER_ENCODINGS });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(varyNames(res)).toContain('accept-encoding');
    expect(res.body).toBe(FAVICON);
  });

  it('issue 13: index.html at / is compressed and revalidated (no-cache)', async () => {
    const res = await get('/', { accept: HTML_ACCEPT, 'accept-encoding': BROWSER_ENCODINGS });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(varyNames(res)).toContain('accept-encoding');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(decoded(res)).toBe(INDEX_HTML);
  });

  it.each([
    [BROWSER_ENCODINGS, 'br'],
    ['gzip', 'gzip'],
    [undefined, undefined],
  ])(
    'issue 13: the SPA fallback for a client route (/menu/treytir) is compressed too (Accept-Encoding %s)',
    async (acceptEncoding, expected) => {
      const res = await get('/menu/treytir', {
        accept: HTML_ACCEPT,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(varyNames(res)).toContain('accept-encoding');
      expect(decoded(res)).toBe(INDEX_HTML);
    },
  );

  it.each(['/', '/menu/treytir'])(
    'issue 13: revalidating index.html (%s) with its ETag or Last-Modified answers 304 without a body',
    async (url) => {
      const headers = { accept: HTML_ACCEPT, 'accept-encoding': BROWSER_ENCODINGS };
      const first = await get(url, headers);
      expect(first.headers.etag).toBeDefined();
      expect(first.headers['last-modified']).toBeDefined();

      const byTag = await get(url, { ...headers, 'if-none-match': String(first.headers.etag) });
      expect(byTag.statusCode).toBe(304);
      expect(byTag.rawPayload.length).toBe(0);
      expect(byTag.headers['cache-control']).toBe('no-cache');
      expect(varyNames(byTag)).toContain('accept-encoding');

      const byDate = await get(url, {
        ...headers,
        'if-modified-since': String(first.headers['last-modified']),
      });
      expect(byDate.statusCode).toBe(304);
      expect(byDate.rawPayload.length).toBe(0);
    },
  );

  it('issue 13: a 304 for a file sent as it is gets no Content-Encoding (nothing compresses an empty answer)', async () => {
    const headers = { 'accept-encoding': BROWSER_ENCODINGS };
    const first = await get('/favicon.svg', headers);
    const again = await get('/favicon.svg', {
      ...headers,
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(again.rawPayload.length).toBe(0);
  });

  it('issue 13: HEAD answers like GET (encoding, length, caching) without a body', async () => {
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/assets/index-3f9a1c2b.js',
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varyNames(res)).toContain('accept-encoding');
    const br = await stat(path.join(webDist, 'assets', 'index-3f9a1c2b.js.br'));
    expect(Number(res.headers['content-length'])).toBe(br.size);
    expect(res.rawPayload.length).toBe(0);

    const page = await t.app.inject({
      method: 'HEAD',
      url: '/menu/treytir',
      headers: { accept: HTML_ACCEPT, 'accept-encoding': 'gzip' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.rawPayload.length).toBe(0);
  });

  it.each([
    '/assets/index-3f9a1c2b.js.map',
    '/assets/index-3f9a1c2b.js.br',
    '/assets/index-3f9a1c2b.js.gz',
    '/index.html.br',
  ])(
    'issue 13: %s is not published (source maps and compressed copies under their own names)',
    async (url) => {
      const res = await get(url, { accept: '*/*', 'accept-encoding': BROWSER_ENCODINGS });
      expect(res.statusCode).toBe(404);
    },
  );

  it('issue 13: a JSON answer of at least 1 KiB is compressed (br, else gzip)', async () => {
    const br = await get('/api/openapi.json', { 'accept-encoding': BROWSER_ENCODINGS });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(varyNames(br)).toContain('accept-encoding');
    const document = JSON.parse(decoded(br)) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
    expect(Buffer.byteLength(decoded(br))).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

    const gzip = await get('/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(decoded(br));

    const plain = await get('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(decoded(br));
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.1', 'gzip'],
    ['x-gzip', 'gzip'],
    // `*` (any coding) is answered in gzip, @fastify/compress's choice for it.
    ['*', 'gzip'],
    ['*;q=0.2, br;q=0', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['deflate', undefined],
  ])(
    'issue 13 (RFC 9110 §12.5.3): Accept-Encoding %s gets a JSON answer in %s, a compressed one with Vary: Accept-Encoding',
    async (acceptEncoding, expected) => {
      const res = await get('/api/openapi.json', { 'accept-encoding': acceptEncoding });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      if (expected) expect(varyNames(res)).toContain('accept-encoding');
      expect(JSON.parse(decoded(res))).toMatchObject({ openapi: '3.1.0' });
      // A big answer (the OpenAPI document is 1.3 MB) is compressed as a stream, sent chunked.
      if (res.headers['content-length'] !== undefined)
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    },
  );

  it('issue 13: a JSON answer under 1 KiB goes out uncompressed, even when the browser accepts br', async () => {
    const res = await get('/api/plans', { 'accept-encoding': BROWSER_ENCODINGS });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(parse(errorEnvelope, res).error.code).toBe('UNAUTHORIZED');
  });

  it("issue 13: the OpenAPI browser's big static files are not compressed per request", async () => {
    const res = await get('/api/docs/static/swagger-ui.css', {
      'accept-encoding': BROWSER_ENCODINGS,
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeGreaterThan(100 * 1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('issue 13: only /api routes compress per request; the hub, the OpenAPI browser, probes and the app do not', () => {
    expect(compressesAnswers('/api/subscriptions')).toBe(true);
    expect(compressesAnswers('/api/openapi.json')).toBe(true);
    expect(compressesAnswers('/api/hubs/payment/negotiate')).toBe(false);
    expect(compressesAnswers('/api/docs/static/*')).toBe(false);
    expect(compressesAnswers('/healthz')).toBe(false);
    expect(compressesAnswers('/*')).toBe(false);
    expect(compressesAnswers('/.well-known/assetlinks.json')).toBe(false);
  });
});

describe('issue 13: the build step that precompresses the app (apps/web/precompress.ts)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'alda-precompress-'));
    await mkdir(path.join(dir, 'assets'));
    await mkdir(path.join(dir, '.vite'));
    await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
    await writeFile(path.join(dir, 'assets', 'index-3f9a1c2b.js'), ENTRY_JS);
    await writeFile(path.join(dir, 'assets', 'index-77aa00ff.css'), STYLES);
    await writeFile(path.join(dir, 'assets', 'index-3f9a1c2b.js.map'), ENTRY_JS);
    await writeFile(path.join(dir, 'assets', 'logo-1a2b3c4d.png'), randomBytes(4096));
    // A text type whose content does not compress: a copy would only cost a file read.
    await writeFile(path.join(dir, 'assets', 'noise-0f0f0f0f.js'), randomBytes(4096));
    await writeFile(path.join(dir, '.vite', 'manifest.json'), ENTRY_JS);
    await writeFile(path.join(dir, 'favicon.svg'), FAVICON);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('issue 13: writes .br and .gz that decompress to the original, and skips small, binary, map and dot files', async () => {
    const written = await precompressDir(dir);
    expect(written.map((file) => file.file)).toEqual([
      'assets/index-3f9a1c2b.js',
      'assets/index-77aa00ff.css',
      'assets/noise-0f0f0f0f.js',
      'index.html',
    ]);
    for (const [file, content] of [
      ['index.html', INDEX_HTML],
      ['assets/index-3f9a1c2b.js', ENTRY_JS],
      ['assets/index-77aa00ff.css', STYLES],
    ] as const) {
      const br = await readFile(path.join(dir, `${file}.br`));
      const gz = await readFile(path.join(dir, `${file}.gz`));
      expect(brotliDecompressSync(br).toString('utf8')).toBe(content);
      expect(gunzipSync(gz).toString('utf8')).toBe(content);
      expect(br.length).toBeLessThan(gz.length);
      expect(gz.length).toBeLessThan(Buffer.byteLength(content));
      const entry = written.find((w) => w.file === file);
      expect(entry).toEqual({
        file,
        bytes: Buffer.byteLength(content),
        br: br.length,
        gz: gz.length,
      });
    }
    // Random bytes do not shrink by the 5 % a copy must save: none is written.
    expect(written.find((w) => w.file === 'assets/noise-0f0f0f0f.js')).toEqual({
      file: 'assets/noise-0f0f0f0f.js',
      bytes: 4096,
      br: null,
      gz: null,
    });

    const exists = (file: string) =>
      stat(path.join(dir, file)).then(
        () => true,
        () => false,
      );
    for (const skipped of [
      'favicon.svg.br',
      'favicon.svg.gz',
      'assets/index-3f9a1c2b.js.map.br',
      'assets/logo-1a2b3c4d.png.br',
      '.vite/manifest.json.br',
      'assets/noise-0f0f0f0f.js.br',
      'assets/noise-0f0f0f0f.js.gz',
    ]) {
      expect(await exists(skipped)).toBe(false);
    }
  });

  it('issue 13: running it again does not compress the compressed copies', async () => {
    const again = await precompressDir(dir);
    expect(again.every((file) => !file.file.endsWith('.br') && !file.file.endsWith('.gz'))).toBe(
      true,
    );
  });

  it('issue 13: compresses text types from 1 KiB and nothing else', () => {
    expect(isCompressible('app.js', MIN_BYTES)).toBe(true);
    expect(isCompressible('app.js', MIN_BYTES - 1)).toBe(false);
    expect(isCompressible('site.webmanifest', 4096)).toBe(true);
    expect(isCompressible('app.js.map', 4096)).toBe(false);
    expect(isCompressible('photo.png', 4096)).toBe(false);
    expect(isCompressible('font.woff2', 4096)).toBe(false);
  });
});

describe('issue 13: files of the app do not count against the API rate limit', () => {
  let t: TestApp;
  let webDist: string;
  const LIMIT = 3;

  beforeAll(async () => {
    webDist = await writeWebDist();
    t = await createTestApp({ WEB_DIST: webDist, RATE_LIMIT_MAX: String(LIMIT) });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('issue 13: many page loads (index.html, bundles, client routes, HEAD) stay 200 while /api is limited', async () => {
    const loads = 4 * LIMIT;
    for (let i = 0; i < loads; i++) {
      for (const [method, url, accept] of [
        ['GET', '/', HTML_ACCEPT],
        ['GET', '/menu/treytir', HTML_ACCEPT],
        ['GET', '/assets/index-3f9a1c2b.js', '*/*'],
        ['GET', '/assets/index-77aa00ff.css', 'text/css,*/*;q=0.1'],
        ['GET', '/favicon.svg', '*/*'],
        ['HEAD', '/assets/index-3f9a1c2b.js', '*/*'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: { accept, 'accept-encoding': BROWSER_ENCODINGS },
        });
        expect(res.statusCode, `${method} ${url} (load ${i + 1})`).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }

    // The API still counts: LIMIT answers, then 429 (unknown /api paths and non-GETs included).
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      // Not seeded here: 404 NOT_FOUND until the limiter steps in.
      const res = await t.app.inject({ method: 'GET', url: '/api/content/terms' });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(404), 429]);
    expect((await t.app.inject({ method: 'GET', url: '/api/nope' })).statusCode).toBe(429);
    // The router decodes the path: an encoded /api route is the same route and counts the same.
    const encoded = await t.app.inject({ method: 'GET', url: '/%61pi/content/terms' });
    expect(encoded.statusCode).toBe(429);
    const post = await t.app.inject({
      method: 'POST',
      url: '/menu',
      headers: { accept: HTML_ACCEPT },
    });
    expect(post.statusCode).toBe(429);
    // … and the app's files are still served.
    expect(
      (await t.app.inject({ method: 'GET', url: '/assets/index-3f9a1c2b.js' })).statusCode,
    ).toBe(200);
  });
});

describe('without a built web app', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await createTestApp(
      { WEB_DIST: '/nonexistent/alda-web', LOG_LEVEL: 'warn' },
      { logStream: logs },
    );
  });
  afterAll(() => t.close());

  it('logs a warning and serves only the API', async () => {
    expect(
      logs.lines.some(
        (line) => line.level === 40 && String(line.msg).includes('web app not found'),
      ),
    ).toBe(true);
    const page = await t.app.inject({
      method: 'GET',
      url: '/menu',
      headers: { accept: HTML_ACCEPT },
    });
    expect(page.statusCode).toBe(404);
    expect(parse(errorEnvelope, page).error.code).toBe('ROUTE_NOT_FOUND');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
