import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@alda/contract/envelope';
import { createTestApp, LogCapture, parse, type TestApp } from './helper';

const INDEX_HTML =
  '<!doctype html><html lang="fo"><head><script type="module" src="/assets/index-3f9a1c2b.js"></script></head><body><div id="root"></div></body></html>';

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('serving the built web app (WEB_DIST)', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    // A miniature Vite build: index.html, hashed bundles under assets/, a public file and a map.
    webDist = await mkdtemp(path.join(os.tmpdir(), 'alda-web-dist-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
    await writeFile(path.join(webDist, 'assets', 'index-3f9a1c2b.js'), 'console.log("alda");');
    await writeFile(path.join(webDist, 'assets', 'index-77aa00ff.css'), 'body{margin:0}');
    await writeFile(path.join(webDist, 'assets', 'index-3f9a1c2b.js.map'), '{"version":3}');
    await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  const get = (url: string, accept?: string) =>
    t.app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });

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
  });

  it('revalidates files outside assets/ (their names do not change with their content)', async () => {
    const res = await get('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
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
