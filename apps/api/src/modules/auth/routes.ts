import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  emailLoginRequest,
  logoutRequest,
  refreshTokenRequest,
  tokens,
  user,
} from '@alda/contract/schemas/auth';
import {
  enterPinRequest,
  forgotPasswordRequest,
  forgotPasswordResponse,
  registerRequestWithoutAgeLimit,
  requestPinRequest,
  requestPinResponse,
  resetPasswordRequest,
} from '@alda/contract/schemas/auth-register';
import { okResponse } from '@alda/contract/schemas/common';
import { changePasswordRequest } from '@alda/contract/schemas/profile';
import {
  authSessionsResponse,
  confirmationCodeResponse,
  sessionIdParams,
  signOutOthersRequest,
  signOutOthersResponse,
  signOutSessionRequest,
  type SignInDevice,
} from '@alda/contract/schemas/sessions';
import type { FastifyRequest } from 'fastify';
import { clientCountry, clientMeta, errorResponses } from '../../http';
import { requestLocale } from '../../i18n';
import { requireUser } from '../../plugins/auth';
import type { PasswordService } from './password-service';
import type { PhoneLoginService } from './phone-login-service';
import type { RegisterService } from './register-service';
import type { AuthService, ClientMeta } from './service';
import type { SessionsService } from './sessions-service';

export interface AuthRoutesOptions {
  service: AuthService;
  register: RegisterService;
  phoneLogin: PhoneLoginService;
  passwords: PasswordService;
  sessions: SessionsService;
  /**
   * The header in which the edge names the client's country (CLIENT_COUNTRY_HEADER, lower
   * case); undefined: the place of a sign-in is unknown (ADR 0059).
   */
  countryHeader?: string;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { service, register, phoneLogin, passwords, sessions, countryHeader },
) => {
  /**
   * Who signs in: address and user agent from HTTP, the country from the edge's header when
   * one is trusted, the device from the body (ADR 0059).
   */
  const signInMeta = (request: FastifyRequest, device: SignInDevice | undefined): ClientMeta => ({
    ...clientMeta(request),
    device,
    country: clientCountry(request, countryHeader),
  });

  app.post(
    '/api/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register a new user and sign in (SPEC §2 /stovna-brukara, §5)',
        description:
          "Validates every field with the SPEC §5 rules (400 VALIDATION_FAILED with `field`; a city that is not the postal code's answers `field: city`). Younger than MIN_AGE (default 18): 422 TOO_YOUNG (a parent or guardian must register). 409 EMAIL_ALREADY_REGISTERED (the web offers a password reset) or PHONE_ALREADY_REGISTERED. The Accept-Language of the request becomes the user's language. Answers a token pair: the user is signed in.",
        body: registerRequestWithoutAgeLimit,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 409, 422) },
      },
    },
    async (request) => ({
      data: await register.register(
        request.body,
        requestLocale(request),
        signInMeta(request, request.body.device),
      ),
    }),
  );

  app.post(
    '/api/auth/email-login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with e-mail and password (SPEC §7 Auth)',
        description:
          'Starts a session. A wrong address or password answers 401 INVALID_CREDENTIALS.',
        body: emailLoginRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await service.loginWithEmail(
        request.body.email,
        request.body.password,
        signInMeta(request, request.body.device),
      ),
    }),
  );

  app.post(
    '/api/auth/request-pin',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a one-time login code by SMS (SPEC §7 Auth)',
        description:
          'Sends 6 random digits to the number, valid 10 minutes, single use, 5 tries. Answers the lifetime and the resend countdown (60 s). 404 PHONE_NOT_REGISTERED, 409 PHONE_PROCESSING (the line is still being set up), 429 PIN_RESEND_TOO_SOON with `retryAfter`, 429 TOO_MANY_ATTEMPTS, 503 SMS_NOT_SENT.',
        body: requestPinRequest,
        response: {
          200: dataEnvelope(requestPinResponse),
          ...errorResponses(400, 404, 409, 503),
        },
      },
    },
    async (request) => ({
      data: await phoneLogin.requestPin(
        request.body.phoneNumber,
        requestLocale(request),
        clientMeta(request),
      ),
    }),
  );

  app.post(
    '/api/auth/enter-pin',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with the SMS code (SPEC §7 Auth; the code travels as `password`)',
        description:
          '401 INVALID_PIN for a wrong code; 410 PIN_EXPIRED when the number has no usable code (none, used, expired, or its 5 tries are spent — the fifth wrong try answers PIN_EXPIRED); 429 TOO_MANY_ATTEMPTS.',
        body: enterPinRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 401, 410) },
      },
    },
    async (request) => ({
      data: await phoneLogin.enterPin(
        request.body.phoneNumber,
        request.body.password,
        signInMeta(request, request.body.device),
      ),
    }),
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a password reset link (SPEC §7 Auth)',
        description:
          'Always `{ ok: true }`, whether or not the address has a user. The link (`<APP_URL>/nytt-loyniord?token=…`) works once, for one hour. 429 TOO_MANY_ATTEMPTS per network address.',
        body: forgotPasswordRequest,
        response: { 200: dataEnvelope(forgotPasswordResponse), ...errorResponses(400) },
      },
    },
    async (request) => {
      await passwords.forgotPassword(request.body.email, clientMeta(request));
      return { data: { ok: true as const } };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the e-mailed token (SPEC §7 Auth)',
        description:
          'Ends every session of the user and answers a fresh token pair. 400 TOKEN_INVALID for an unknown, used or expired token.',
        body: resetPasswordRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400) },
      },
    },
    async (request) => ({
      data: await passwords.resetPassword(
        request.body.token,
        request.body.password,
        signInMeta(request, request.body.device),
      ),
    }),
  );

  app.post(
    '/api/auth/change-password',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Change the password of the signed-in user',
        description:
          'Needs the current password: 422 CURRENT_PASSWORD_INCORRECT (`field: currentPassword`), 429 TOO_MANY_ATTEMPTS after 5 wrong ones in 15 minutes. Ends every other session; this one stays signed in.',
        security: [{ bearerAuth: [] }],
        body: changePasswordRequest,
        response: { 200: dataEnvelope(okResponse), ...errorResponses(400, 401, 422) },
      },
    },
    async (request) => {
      await passwords.changePassword(
        requireUser(request),
        request.body.currentPassword,
        request.body.password,
      );
      return { data: { ok: true as const } };
    },
  );

  app.post(
    '/api/auth/refresh-token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new token pair (SPEC §7 Auth, §8)',
        description:
          'The presented refresh token is spent. Presenting a spent token again revokes its whole session (reuse detection); answer 401 UNAUTHORIZED.',
        body: refreshTokenRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ data: await service.refresh(request.body.refreshToken) }),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the session of a refresh token',
        description:
          'Revokes the session, which also ends its access tokens. Always 204, even for unknown tokens.',
        body: logoutRequest,
        response: { 204: z.undefined().describe('Logged out'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      await service.logout(request.body.refreshToken);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/auth/me',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user (SPEC §7 Auth, §3 User)',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(user), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.me(requireUser(request).id) }),
  );

  // Sessions you can see (issue 14, OWASP ASVS 5.0 V7; ADR 0059).
  app.get(
    '/api/auth/sessions',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: "The caller's signed-in devices (issue 14, ASVS V7)",
        description:
          "Every session of the signed-in user that is not signed out and still has a usable refresh token: the device the sign-in named (SPEC §3 device meta), when it signed in and when it last fetched a token, where (`country`: ISO 3166-1 alpha-2 from the edge's country header when CLIENT_COUNTRY_HEADER is set, else null), and whether it is the session asking (`current`, listed first).",
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(authSessionsResponse), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await sessions.list(requireUser(request)) }),
  );

  app.post(
    '/api/auth/sessions/:id/sign-out',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out one of my devices, with the password again (issue 14, ASVS 5.0 7.5.2)',
        description:
          "Needs the current `password` (or, for a customer without one, the SMS `code` of POST /api/auth/sessions/confirmation-code): 400 VALIDATION_FAILED `REQUIRED` on `password` without either, 422 PASSWORD_INCORRECT / CONFIRMATION_CODE_INCORRECT for a wrong one, 410 PIN_EXPIRED for a code no longer usable, 429 TOO_MANY_ATTEMPTS — wrong passwords count as failed e-mail logins of the account — and nothing is signed out. Then ends the session and its refresh tokens at once, on every instance (the `session_revoked` notice): its next request answers 401 and its refresh fails. 404 SESSION_NOT_FOUND for an id that is not one of the caller's signed-in sessions (another user's, ended, unknown). The current session may sign itself out with `{}`: a logout.",
        security: [{ bearerAuth: [] }],
        params: sessionIdParams,
        body: signOutSessionRequest,
        response: {
          204: z.undefined().describe('Signed out'),
          ...errorResponses(400, 401, 404, 410, 422),
        },
      },
    },
    async (request, reply) => {
      await sessions.signOut(
        requireUser(request),
        request.params.id,
        request.body,
        clientMeta(request),
      );
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/sessions/sign-out-others',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out every other device, with the password again (issue 14, ASVS 5.0 7.5.2)',
        description:
          'Needs the current `password` or the SMS `code`, with the same answers as signing out one device; a refusal signs nothing out. Then ends every session of the caller except the one asking, as a new password does, and answers how many ended (0 when there were none).',
        security: [{ bearerAuth: [] }],
        body: signOutOthersRequest,
        response: {
          200: dataEnvelope(signOutOthersResponse),
          ...errorResponses(400, 401, 410, 422),
        },
      },
    },
    async (request) => ({
      data: {
        signedOut: await sessions.signOutOthers(
          requireUser(request),
          request.body,
          clientMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/auth/sessions/confirmation-code',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Send an SMS code to confirm signing devices out with (issue 14, ASVS 5.0 7.5.2)',
        description:
          "For customers without a password (`hasPassword: false` in GET /api/auth/me), who sign in with phone codes: sends 6 digits to the number they sign in with (answered as `phoneNumber`), in the request's language, valid 10 minutes, single use, 5 tries, good only as the `code` of the two sign-out calls of this user. The limits, resend countdown and answers of POST /api/auth/request-pin apply: 429 PIN_RESEND_TOO_SOON with `retryAfter`, 429 TOO_MANY_ATTEMPTS, 503 SMS_NOT_SENT; 404 PHONE_NOT_REGISTERED when the user has no number to send it to.",
        security: [{ bearerAuth: [] }],
        response: {
          200: dataEnvelope(confirmationCodeResponse),
          ...errorResponses(401, 404, 503),
        },
      },
    },
    async (request) => ({
      data: await phoneLogin.requestConfirmationCode(
        requireUser(request),
        requestLocale(request),
        clientMeta(request),
      ),
    }),
  );
};
