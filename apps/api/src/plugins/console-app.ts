import fastifyStatic from '@fastify/static';
import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { sendRouteNotFound } from './error-handler';
import { builtSpaStatic, hasIndexHtml, isPageNavigation, REVALIDATE } from './spa-static';

/*
 * The staff console (apps/console, docs/decisions/0075-staff-console.md) at /console/, beside the
 * customer app at / (web-app.ts) and served the same way (spa-static.ts): hashed bundles under
 * /console/assets/ cached for a year, everything else revalidated, the build's `.br`/`.gz`
 * copies sent by Accept-Encoding, source maps never. A page navigation to any other /console/…
 * path gets the console's index.html (its router takes it from there); the customer app's
 * fallback never answers under /console. Under the same CSP as the customer app (security.ts):
 * the console has no inline script either.
 */

export const CONSOLE_PREFIX = '/console';

/** `/console` and everything under `/console/` (query and fragment aside). */
export function isConsolePath(url: string): boolean {
  const pathName = url.split(/[?#]/, 1)[0] ?? '';
  return pathName === CONSOLE_PREFIX || pathName.startsWith(`${CONSOLE_PREFIX}/`);
}

/**
 * Serves the built console (CONSOLE_DIST) at /console/. Returns false, after a warning, when the
 * folder has no index.html: the API and the customer app run without it (as in development,
 * where Vite serves the console). `notFoundOptions` are the app's options for unmatched requests
 * (the rate limit's preHandler), which also apply under /console.
 */
export async function registerConsoleApp(
  app: FastifyInstance,
  consoleDist: string,
  notFoundOptions: RouteShorthandOptions = {},
): Promise<boolean> {
  if (!(await hasIndexHtml(consoleDist))) {
    app.log.warn(
      { consoleDist },
      'staff console not found (no index.html); /console/ is not served. Run `npm run build -w @alda/console`.',
    );
    return false;
  }

  // `/console` → `/console/`: the console's URLs are relative to its base.
  app.get(CONSOLE_PREFIX, { schema: { hide: true } }, (request, reply) => {
    const query = request.url.slice(CONSOLE_PREFIX.length);
    return reply.redirect(`${CONSOLE_PREFIX}/${query}`, 308);
  });

  // A scope of its own under /console: its `sendFile` and its not-found handler (the SPA
  // fallback) are the console's, not the customer app's.
  await app.register(
    async (scope) => {
      await scope.register(fastifyStatic, builtSpaStatic(consoleDist));

      scope.setNotFoundHandler(notFoundOptions, (request, reply) => {
        // A missing bundle (`/console/assets/x.js`) stays a 404: a broken build fails loudly.
        if (!isPageNavigation(request)) return sendRouteNotFound(request, reply);
        return reply.header('cache-control', REVALIDATE).sendFile('index.html');
      });
    },
    { prefix: CONSOLE_PREFIX },
  );
  return true;
}
