import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { dataEnvelope } from '@alda/contract/envelope';
import { tokens } from '@alda/contract/schemas/auth';
import {
  passkey,
  passkeyCreateRequest,
  passkeyDeleteRequest,
  passkeyIdParams,
  passkeyList,
  passkeyLoginOptions,
  passkeyLoginRequest,
  passkeyOptionsRequest,
  passkeyRegistrationOptions,
  passkeyRenameRequest,
} from '@alda/contract/schemas/passkeys';
import type { SignInDevice } from '@alda/contract/schemas/sessions';
import { clientCountry, clientMeta, errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { ClientMeta } from '../auth/service';
import type { PasskeyService } from './service';

/*
 * Customers' passkeys (docs/decisions/0097-passkeys.md): `/api/auth/passkeys` (signed in) and
 * `/api/auth/passkey-login` (guests). Refusals of a WebAuthn answer: 400 PASSKEY_CHALLENGE_INVALID
 * (unknown or answered before), PASSKEY_CHALLENGE_EXPIRED, PASSKEY_ORIGIN_MISMATCH,
 * PASSKEY_RP_MISMATCH, PASSKEY_USER_NOT_VERIFIED, PASSKEY_INVALID; 401 PASSKEY_NOT_RECOGNISED,
 * PASSKEY_COUNTER_INVALID. A refusal changes nothing.
 */

const security = [{ bearerAuth: [] }];
const REFUSALS =
  'A refused answer changes nothing: 400 PASSKEY_CHALLENGE_INVALID (unknown, or answered before), PASSKEY_CHALLENGE_EXPIRED (older than 5 minutes), PASSKEY_ORIGIN_MISMATCH (clientDataJSON from another origin than WEBAUTHN_ORIGINS), PASSKEY_RP_MISMATCH (made for another RP ID than WEBAUTHN_RP_ID), PASSKEY_USER_NOT_VERIFIED (no UV flag), PASSKEY_INVALID (malformed, or a bad signature).';

export const passkeyRoutes: FastifyPluginAsyncZod<{
  service: PasskeyService;
  countryHeader?: string;
}> = async (app, { service, countryHeader }) => {
  const signInMeta = (request: FastifyRequest, device: SignInDevice | undefined): ClientMeta => ({
    ...clientMeta(request),
    device,
    country: clientCountry(request, countryHeader),
  });

  app.get(
    '/api/auth/passkeys',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: "The caller's passkeys, newest first",
        security,
        response: { 200: dataEnvelope(passkeyList), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await service.list(requireUser(request)) }),
  );

  app.post(
    '/api/auth/passkeys/options',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Options to make a passkey (WebAuthn creation options), after proving who it is',
        description:
          "Needs the current `password`, or for a customer without one the SMS `code` of POST /api/auth/sessions/confirmation-code, with the same answers as signing out a device (400 VALIDATION_FAILED `REQUIRED`, 422 PASSWORD_INCORRECT / CONFIRMATION_CODE_INCORRECT, 410 PIN_EXPIRED, 429 TOO_MANY_ATTEMPTS). Within 5 minutes of this session's sign-in `{}` is enough. Answers `PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create()`: a discoverable credential, user verification required, no attestation, the caller's passkeys excluded. Its challenge is good for 5 minutes, once, for this session.",
        security,
        body: passkeyOptionsRequest,
        response: {
          200: dataEnvelope(passkeyRegistrationOptions),
          ...errorResponses(400, 401, 410, 422),
        },
      },
    },
    async (request) => ({
      data: {
        options: await service.registrationOptions(
          requireUser(request),
          request.body,
          clientMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/auth/passkeys',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Add a passkey: the answer of navigator.credentials.create()',
        description: `The answer to this session's challenge (POST /api/auth/passkeys/options). ${REFUSALS} 409 PASSKEY_ALREADY_REGISTERED for a credential an account has. \`name\` is what the list shows (default: the device this session signed in on). Writes the activity log and the audit log, and e-mails the customer.`,
        security,
        body: passkeyCreateRequest,
        response: { 201: dataEnvelope(passkey), ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await service.create(requireUser(request), request.body) }),
  );

  app.patch(
    '/api/auth/passkeys/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Rename one of my passkeys',
        description: '404 PASSKEY_NOT_FOUND when it is not one of the caller’s.',
        security,
        params: passkeyIdParams,
        body: passkeyRenameRequest,
        response: { 200: dataEnvelope(passkey), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      data: await service.rename(requireUser(request), request.params.id, request.body.name),
    }),
  );

  app.post(
    '/api/auth/passkeys/:id/delete',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Delete one of my passkeys, with the password or SMS code again',
        description:
          'The proof as for POST /api/auth/passkeys/options (never waived). 404 PASSKEY_NOT_FOUND when it is not one of the caller’s; 409 PASSKEY_LAST_WAY_IN when the account has no password, no number for SMS codes and no other passkey. Writes the activity log and the audit log.',
        security,
        params: passkeyIdParams,
        body: passkeyDeleteRequest,
        response: {
          204: z.undefined().describe('Deleted'),
          ...errorResponses(400, 401, 404, 409, 410, 422),
        },
      },
    },
    async (request, reply) => {
      await service.remove(
        requireUser(request),
        request.params.id,
        request.body,
        clientMeta(request),
      );
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/auth/passkey-login/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'A challenge to sign in with a passkey (WebAuthn request options)',
        description:
          'For `navigator.credentials.get()`, with `mediation: "conditional"` (autofill) or from a button: any passkey of ours (`allowCredentials` empty), user verification required, good for 5 minutes, once. 429 TOO_MANY_ATTEMPTS past 300 an address in 15 minutes.',
        response: { 200: dataEnvelope(passkeyLoginOptions), ...errorResponses() },
      },
    },
    async (request) => ({
      data: { options: await service.loginOptions(clientMeta(request)) },
    }),
  );

  app.post(
    '/api/auth/passkey-login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey: the answer of navigator.credentials.get()',
        description: `No password, no SMS code. ${REFUSALS} 401 PASSKEY_NOT_RECOGNISED for a passkey no account has (removed, or the user handle of another user), 401 PASSKEY_COUNTER_INVALID when its counter did not rise (a copied authenticator). Counted with the address's sign-in attempts (429 TOO_MANY_ATTEMPTS). Answers a token pair, as the other sign-ins.`,
        body: passkeyLoginRequest,
        response: { 200: dataEnvelope(tokens), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      data: await service.login(request.body, signInMeta(request, request.body.device)),
    }),
  );
};
