import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath } from '../http';
import { isConsolePath } from './console-app';
import { builtSpaStatic, hasIndexHtml, isPageNavigation, REVALIDATE } from './spa-static';

/**
 * Paths an operator's tools ask for (issue 44: Prometheus' `/metrics`): never a page of the app,
 * so one not served here is a plain "not found" rather than the app's index.html.
 */
const OPERATOR_PATHS: ReadonlySet<string> = new Set(['/metrics']);
const isOperatorPath = (url: string) => OPERATOR_PATHS.has(url.split('?')[0] ?? url);

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
  if (!(await hasIndexHtml(webDist))) {
    app.log.warn(
      { webDist },
      'web app not found (no index.html); serving the API only. Run `npm run build -w @alda/web`.',
    );
    return null;
  }

  // `/api/…` is never a file of the app.
  await app.register(fastifyStatic, builtSpaStatic(webDist, isApiPath));

  return {
    fallback(request, reply) {
      // A missing file (`/assets/x.js`) stays a 404.
      const isNavigation =
        isPageNavigation(request) &&
        !isApiPath(request.url) &&
        !isOperatorPath(request.url) &&
        // The staff console's paths are its own (console-app.ts), built or not.
        !isConsolePath(request.url);
      if (!isNavigation) return false;
      // A client route such as /menu/treytir: the SPA router takes it from here (SPEC §2).
      void reply.header('cache-control', REVALIDATE).sendFile('index.html');
      return true;
    },
  };
}
