import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '../http';
import { isConsolePath } from './console-app';

/** Vite puts content-hashed bundles here; their names change whenever their content does. */
const HASHED_ASSETS_DIR = 'assets';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Revalidate every time: index.html names the current hashed bundles. */
const REVALIDATE = 'no-cache';

export interface WebApp {
  /**
   * Answers an unmatched request with the SPA's index.html when it is a page navigation
   * (GET/HEAD outside /api that accepts HTML or names no file). Returns false when it is not one.
   */
  fallback(request: FastifyRequest, reply: FastifyReply): boolean;
}

/**
 * Serves the built web app (WEB_DIST) next to the API. Returns null, after a warning, when the
 * folder has no index.html: the API still runs, e.g. in development where Vite serves the app.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
): Promise<WebApp | null> {
  const indexFile = path.join(webDist, 'index.html');
  const present = await stat(indexFile).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!present) {
    app.log.warn(
      { webDist },
      'web app not found (no index.html); serving the API only. Run `npm run build -w @alda/web`.',
    );
    return null;
  }

  const assetsPrefix = path.join(webDist, HASHED_ASSETS_DIR) + path.sep;
  await app.register(fastifyStatic, {
    root: webDist,
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
      !isApiPath(pathName),
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.startsWith(assetsPrefix) ? IMMUTABLE : REVALIDATE);
    },
  });

  return {
    fallback(request, reply) {
      const accept = request.headers.accept ?? '';
      // A browser's navigation accepts HTML; a plain `fetch('/')` (Accept: */*) asks for a page
      // too when the path names no file. A missing file (`/assets/x.js`) stays a 404.
      const isNavigation =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isApiPath(request.url) &&
        // The staff console's paths are its own (console-app.ts), built or not.
        !isConsolePath(request.url) &&
        (accept.includes('text/html') || namesNoFile(request.url));
      if (!isNavigation) return false;
      // A client route such as /menu/treytir: the SPA router takes it from here (SPEC §2).
      void reply.header('cache-control', REVALIDATE).sendFile('index.html');
      return true;
    },
  };
}

/** `/`, `/menu/treytir`: the last segment of the path has no file extension. */
function namesNoFile(url: string): boolean {
  const pathName = url.split(/[?#]/, 1)[0] ?? '';
  return !/\.[^/]*$/.test(pathName.slice(pathName.lastIndexOf('/') + 1));
}
