import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { precompressDir } from '../../web/precompress';
import { createTestApp, parse, type TestApp } from './helper';

/*
 * The staff console served at /console/ (plugins/console-app.ts, ADR 0075) beside the customer
 * app at /: its own files, its own SPA fallback, the customer app's fallback kept out of it.
 */

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CONSOLE_INDEX =
  '<!doctype html><html lang="fo"><head><title>Alda – arbeiðsborð</title>' +
  '<script type="module" crossorigin src="/console/assets/index-c0ffee12.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
const WEB_INDEX =
  '<!doctype html><html lang="fo"><head><title>Alda</title></head><body></body></html>';
/** Over 1 KiB and repetitive, so the build step writes a .br copy. */
const CONSOLE_JS = Array.from(
  { length: 120 },
  (_, i) => `export const area${i} = t("nav.a${i}");`,
).join('\n');

async function writeDists(): Promise<{ root: string; web: string; console: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'alda-console-app-'));
  const web = path.join(root, 'web');
  const consoleDist = path.join(root, 'console');
  await mkdir(path.join(web, 'assets'), { recursive: true });
  await mkdir(path.join(consoleDist, 'assets'), { recursive: true });
  await writeFile(path.join(web, 'index.html'), WEB_INDEX);
  await writeFile(path.join(consoleDist, 'index.html'), CONSOLE_INDEX);
  await writeFile(
    path.join(consoleDist, 'favicon.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
  );
  await writeFile(path.join(consoleDist, 'assets', 'index-c0ffee12.js'), CONSOLE_JS);
  await writeFile(path.join(consoleDist, 'assets', 'index-c0ffee12.js.map'), '{"version":3}');
  await precompressDir(consoleDist);
  return { root, web, console: consoleDist };
}

describe('serving the staff console (CONSOLE_DIST) at /console/', () => {
  let t: TestApp;
  let dirs: Awaited<ReturnType<typeof writeDists>>;

  beforeAll(async () => {
    dirs = await writeDists();
    t = await createTestApp({ WEB_DIST: dirs.web, CONSOLE_DIST: dirs.console });
  });
  afterAll(async () => {
    await t.close();
    await rm(dirs.root, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it.each([
    '/console/',
    '/console/orders',
    '/console/customers/5b0f0c1e-1f64-4c84-9a55-1c1b2d3e4f50',
    '/console/sign-in?x=1',
  ])('answers %s with the console index.html, revalidated, under the CSP', async (url) => {
    const res = await get(url, { accept: HTML_ACCEPT });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toBe(CONSOLE_INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('answers a plain fetch of a console route (Accept */*, no file named) with the index.html', async () => {
    const res = await get('/console/orders', { accept: '*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(CONSOLE_INDEX);
  });

  it('redirects /console to /console/', async () => {
    const res = await get('/console?lang=en');
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('/console/?lang=en');
  });

  it('serves hashed bundles for a year, precompressed by Accept-Encoding, without a CSP', async () => {
    const res = await get('/console/assets/index-c0ffee12.js', { 'accept-encoding': 'gzip, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toBe(CONSOLE_JS);
    expect(res.headers['content-security-policy']).toBeUndefined();
    const plain = await get('/console/favicon.svg');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
  });

  it('keeps a missing bundle, a source map and other methods as JSON 404s', async () => {
    for (const res of [
      await get('/console/assets/missing-123.js'),
      await get('/console/assets/index-c0ffee12.js.map'),
      // The build's compressed copy is sent for its file, never under its own name.
      await get('/console/assets/index-c0ffee12.js.br'),
      await t.app.inject({
        method: 'POST',
        url: '/console/orders',
        headers: { accept: HTML_ACCEPT },
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(parse(errorEnvelope, res).error.code).toBe('ROUTE_NOT_FOUND');
    }
  });

  it('leaves / and the customer app’s routes to the customer app', async () => {
    for (const url of ['/', '/menu/treytir', '/consoles']) {
      const res = await get(url, { accept: HTML_ACCEPT });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(WEB_INDEX);
    }
  });
});

describe('without a built console', () => {
  let t: TestApp;
  let dirs: Awaited<ReturnType<typeof writeDists>>;
  beforeAll(async () => {
    dirs = await writeDists();
    t = await createTestApp({ WEB_DIST: dirs.web, CONSOLE_DIST: path.join(dirs.root, 'none') });
  });
  afterAll(async () => {
    await t.close();
    await rm(dirs.root, { recursive: true, force: true });
  });

  it('never answers /console/… with the customer app', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/console/orders',
      headers: { accept: HTML_ACCEPT },
    });
    expect(res.statusCode).toBe(404);
    expect(parse(errorEnvelope, res).error.code).toBe('ROUTE_NOT_FOUND');
    const web = await t.app.inject({
      method: 'GET',
      url: '/menu',
      headers: { accept: HTML_ACCEPT },
    });
    expect(web.body).toBe(WEB_INDEX);
  });
});
