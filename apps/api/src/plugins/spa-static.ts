import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';
import type { FastifyRequest } from 'fastify';

/*
 * Serving a built single-page app (Vite): the customer web app at / (web-app.ts) and the staff
 * console at /console/ (console-app.ts) are served the same way, by these pieces.
 */

/** Vite puts content-hashed bundles here; their names change whenever their content does. */
const HASHED_ASSETS_DIR = 'assets';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Revalidate every time: index.html names the current hashed bundles. */
export const REVALIDATE = 'no-cache';

/** Whether `dist` holds a build: its index.html is there. */
export async function hasIndexHtml(dist: string): Promise<boolean> {
  return stat(path.join(dist, 'index.html')).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * @fastify/static's options for a built SPA in `dist` (this web app, and the staff console in
 * console-app.ts), `/` being the root of its scope: the hashed bundles under `assets/` cached for
 * a year, the rest revalidated, the build's `.br`/`.gz` copies sent by Accept-Encoding, source
 * maps, dotfiles and the compressed copies under their own names never. `denied`: more paths
 * that are no file of the app.
 */
export function builtSpaStatic(
  dist: string,
  denied: (pathName: string) => boolean = () => false,
): FastifyStaticOptions {
  const assetsPrefix = path.join(dist, HASHED_ASSETS_DIR) + path.sep;
  return {
    root: dist,
    prefix: '/',
    index: 'index.html',
    // The build writes `<file>.br` and `<file>.gz` next to each text asset (apps/web/precompress.ts,
    // issue 13): the smallest one the browser accepts is sent, br > gzip > the file itself, with
    // `Vary: Accept-Encoding` on every answer. Also for index.html through `reply.sendFile`.
    preCompressed: true,
    // Our own Cache-Control below; the default (max-age=0) would override it.
    cacheControl: false,
    // Source maps and dotfiles are not for the public; nor are the compressed copies under their
    // own names (they are sent for the file they compress, with its type).
    dotfiles: 'deny',
    allowedPath: (pathName) =>
      !pathName.endsWith('.map') &&
      !pathName.endsWith('.br') &&
      !pathName.endsWith('.gz') &&
      !denied(pathName),
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.startsWith(assetsPrefix) ? IMMUTABLE : REVALIDATE);
    },
  };
}

/**
 * A page navigation: GET or HEAD that accepts HTML (a browser's), or whose path names no file (a
 * plain `fetch('/')` with Accept: *\/* asks for a page too).
 */
export function isPageNavigation(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (accept.includes('text/html') || namesNoFile(request.url))
  );
}

/** `/`, `/menu/treytir`: the last segment of the path has no file extension. */
function namesNoFile(url: string): boolean {
  const pathName = url.split(/[?#]/, 1)[0] ?? '';
  return !/\.[^/]*$/.test(pathName.slice(pathName.lastIndexOf('/') + 1));
}
