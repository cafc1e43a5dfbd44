import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

/**
 * Characters no person types and no field of this API accepts: NUL, which PostgreSQL refuses in
 * text (the query failed, the request was a 500 and the failed query with the customer's e-mail
 * went to the error log — issue 14), and a lone UTF-16 surrogate, which would be stored as
 * U+FFFD, i.e. not what was sent.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const FORBIDDEN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The dotted path of the first string under `value` with a forbidden character, or null. */
export function findForbiddenText(value: unknown, path: string, depth = 0): string | null {
  const keys = forbiddenKeys(value, depth);
  if (keys === null) return null;
  return [path, ...keys.reverse()].filter((key) => key !== '').join('.');
}

/**
 * The keys down to the first forbidden string, innermost first, or null. Every request passes
 * through here, so the clean case allocates nothing: the path is built only for a hit.
 */
function forbiddenKeys(value: unknown, depth: number): string[] | null {
  if (typeof value === 'string') return FORBIDDEN.test(value) ? [] : null;
  // Parsed JSON is as deep as its text allows; the body limit keeps it small, and nothing this
  // API accepts is nested more than a few levels.
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const found = forbiddenKeys((value as Record<string, unknown>)[key], depth + 1);
    if (found !== null) {
      found.push(key);
      return found;
    }
  }
  return null;
}

/**
 * The one place where text enters the API checks it (issue 14): path parameters, the query and
 * a parsed body, before the routes' schemas run. A forbidden character answers 400
 * VALIDATION_FAILED with the field and the INVALID_CHARACTERS message; the value is not logged.
 * A raw body (a webhook's signed bytes) is left to its route.
 */
export function installInputGuard(app: FastifyInstance): void {
  // Callback style, not async: every request passes here, and an async hook costs a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const field =
      findForbiddenText(request.params, '') ??
      findForbiddenText(request.query, '') ??
      (typeof request.body === 'object' ? findForbiddenText(request.body, '') : null);
    if (field === null) {
      done();
      return;
    }
    done(
      new AppError('VALIDATION_FAILED', {
        field: field || 'body',
        validationKey: 'INVALID_CHARACTERS',
        detail: 'forbidden character in input',
      }),
    );
  });
}
