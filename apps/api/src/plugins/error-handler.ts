import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '@alda/contract/errors';
import type { ErrorEnvelope } from '@alda/contract/envelope';
import type { Locale } from '@alda/contract/locale';
import { validationMessage } from '@alda/contract/rules/messages';
import { AppError } from '../errors';
import { DATABASE_RETRY_AFTER_S, databaseUnavailableReason } from '../db/errors';
import { errorMessage, machineLocale, requestLocale } from '../i18n';
import { validationFailure, type ValidationEntry } from '../validation-messages';
import type { LoginMethod } from '../metrics/metrics';

/** Codes for the 4xx statuses Fastify and its plugins raise on their own. */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Builds the error envelope for a code, with the message in the caller's language. */
export function envelope(
  code: ErrorCode,
  locale: Locale,
  field?: string,
  message?: string,
  retryAfter?: number,
): ErrorEnvelope {
  return {
    error: {
      code,
      message: message ?? errorMessage(code, locale),
      ...(field !== undefined ? { field } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    },
  };
}

/**
 * Sends the not-found envelope: for everything under /api that no route matched, and for other
 * paths that are not an SPA navigation (see the not-found handler in app.ts).
 */
export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(404).send(envelope('ROUTE_NOT_FOUND', requestLocale(request)));
}

/**
 * Which code a failure is, with its field, message, retry time and (for an outage) the driver's
 * reason. Exported for the partner APIs that answer in their standard's error shape (TMF635).
 */
export function classify(
  error: FastifyError | Error,
  locale: Locale,
): {
  code: ErrorCode;
  field?: string;
  message?: string;
  retryAfter?: number;
  /** For DATABASE_UNAVAILABLE: the driver's errno or message (safe to log). */
  reason?: string;
} {
  if (error instanceof AppError) {
    return {
      code: error.code,
      ...(error.field ? { field: error.field } : {}),
      ...(error.validationKey ? { message: validationMessage(error.validationKey, locale) } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
    };
  }

  // Schema validation (zod through fastify-type-provider-zod, or a plain JSON schema): name the
  // first offending field so the client can put the message next to it.
  const validation = (error as FastifyError).validation as ValidationEntry[] | undefined;
  if (Array.isArray(validation) && validation.length > 0) {
    const context = (error as FastifyError).validationContext;
    return {
      code: 'VALIDATION_FAILED',
      ...validationFailure(validation[0] ?? {}, context, locale),
    };
  }

  // The database is down or out of reach (docs/decisions/0060-database-outage.md): not a bug of
  // ours, and over by itself, so the client is told to come back instead of seeing INTERNAL.
  const reason = databaseUnavailableReason(error);
  if (reason !== undefined) {
    return { code: 'DATABASE_UNAVAILABLE', retryAfter: DATABASE_RETRY_AFTER_S, reason };
  }

  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST' };
  }
  if (status === 503) return { code: 'SERVICE_UNAVAILABLE' };
  return { code: 'INTERNAL' };
}

/**
 * Failures Fastify answers before a route runs (a path with a malformed percent escape such as
 * `/api/plans/%ED%A0%80`, FST_ERR_BAD_URL): the same envelope as every other 400 instead of
 * Fastify's own body (issue 14, found by the hostile-input test); under `/tmf-api/` the TM Forum
 * `Error` those APIs answer everything with. The `frameworkErrors` option of the server.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  request.log.info({ code: 'BAD_REQUEST', reason: error.code }, 'request rejected');
  if (request.url.startsWith('/tmf-api/')) {
    // The TM Forum APIs answer their documents' `Error`, to a machine in English (ADR 0083).
    void reply
      .status(400)
      .type('application/json; charset=utf-8')
      .send({
        code: 'BAD_REQUEST',
        reason: errorMessage('BAD_REQUEST', machineLocale(request)),
        status: '400',
      });
    return;
  }
  void reply
    .status(400)
    .type('application/json; charset=utf-8')
    .send(envelope('BAD_REQUEST', requestLocale(request)));
}

/**
 * Turns every failure into `{ error: { code, message, field? } }` with the code's status and a
 * message in the caller's language. Server errors are logged in full with the request id and
 * answered with the generic INTERNAL message only, so no stack, SQL or driver text leaks.
 */
/** Answers that are a failed sign-in, by method (alda_login_failures_total, issue 44 §1). */
const LOGIN_FAILURES: Partial<Record<ErrorCode, LoginMethod>> = {
  INVALID_CREDENTIALS: 'password',
  INVALID_PIN: 'phone_code',
  PIN_EXPIRED: 'phone_code',
  STAFF_SIGN_IN_FAILED: 'staff',
  // Answered only to a passkey sign-in (ADR 0097): a passkey we do not know, or a copied one.
  PASSKEY_NOT_RECOGNISED: 'passkey',
  PASSKEY_COUNTER_INVALID: 'passkey',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const locale = requestLocale(request);
    const { code, field, message, retryAfter, reason } = classify(error, locale);
    const status = ERROR_STATUS[code];
    const login = LOGIN_FAILURES[code];
    if (login) app.metrics.loginFailed(login);
    if (code === 'DATABASE_UNAVAILABLE') {
      // Every request fails alike during an outage: one line each, without the stack.
      // (The reason is the driver's errno or message: a wrapped error's own text holds the SQL.)
      request.log.warn({ code, reason }, 'request failed: database unavailable');
    } else if (status >= 500 && !(error instanceof AppError)) {
      request.log.error({ err: error, code }, 'request failed');
    } else if (status >= 500) {
      // A deliberate 5xx (e.g. database unreachable on /readyz): expected, no stack needed.
      request.log.warn({ code, reason: error.message }, 'request failed');
    } else {
      request.log.info({ code, field, reason: error.message }, 'request rejected');
    }
    // Headers a failed handler may have set (content-type of a file, cache rules) must not
    // describe the envelope.
    reply.removeHeader('cache-control');
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    return reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send(envelope(code, locale, field, message, retryAfter));
  });
}
