import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { passkey } from '@alda/contract/schemas/passkeys';
import {
  staffPasskeyCreateRequest,
  staffPasskeyCreationOptions,
  staffPasskeyList,
  staffPasskeyOptions,
  staffPasskeyRegisterRequest,
  staffPasswordStep,
  staffReason,
  staffRole,
  staffRolePolicy,
  staffRolePolicyList,
  staffRolePolicyUpdate,
} from '@alda/contract/schemas/staff';
import { clientMeta, errorResponses } from '../../http';
import { requireStaff } from '../../plugins/staff-auth';
import type { StaffService } from './service';
import type { StaffPasskeyService } from './passkeys-service';

/*
 * Staff passkeys (ADR 0097), `/api/staff/*`, tag `staff`: the passkey sign-in's first step, a
 * member's own passkeys (every role), anyone's passkeys and the roles' passkey rule (admin). The
 * sign-in itself is POST /api/staff/auth/sign-in (routes.ts).
 */

const security = [{ staffBearer: [] }];
const ALL_ROLES = ['support', 'provisioning', 'content'] as const;
const REFUSALS =
  'A refused answer changes nothing: 400 PASSKEY_CHALLENGE_INVALID (unknown, of another session or member, or answered before), PASSKEY_CHALLENGE_EXPIRED (older than 5 minutes), PASSKEY_ORIGIN_MISMATCH (not from WEBAUTHN_ORIGINS), PASSKEY_RP_MISMATCH (made for another RP ID than WEBAUTHN_RP_ID), PASSKEY_USER_NOT_VERIFIED (no UV flag), PASSKEY_INVALID (malformed, or a bad signature).';

export const staffPasskeyRoutes: FastifyPluginAsyncZod<{
  service: StaffPasskeyService;
  staff: StaffService;
}> = async (app, { service, staff }) => {
  app.post(
    '/api/staff/auth/passkey-options',
    {
      schema: {
        tags: ['staff'],
        summary: 'Passkey sign-in, first step: e-mail and password → a challenge for my passkeys',
        description:
          "Checks the password as POST /api/staff/auth/sign-in does, with the same limits: any failure (unknown e-mail, disabled account, wrong password) is 401 STAFF_SIGN_IN_FAILED after the same work, and counts as a failed sign-in (429 TOO_MANY_ATTEMPTS). A right password answers `PublicKeyCredentialRequestOptionsJSON` for `navigator.credentials.get()` with `allowCredentials` = the member's passkeys, user verification required; the challenge is good for 5 minutes, once, for this member only. A member without a passkey is 404 PASSKEY_NOT_FOUND (sign in with the code, then add one). Then send the password again with the answer as `passkey` to POST /api/staff/auth/sign-in.",
        body: staffPasswordStep,
        response: { 200: dataEnvelope(staffPasskeyOptions), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      data: { options: await staff.passkeyOptions(request.body, clientMeta(request)) },
    }),
  );

  app.get(
    '/api/staff/passkeys',
    {
      onRequest: app.staffOnly(...ALL_ROLES),
      schema: {
        tags: ['staff'],
        summary: 'My passkeys, newest first',
        security,
        response: { 200: dataEnvelope(staffPasskeyList), ...errorResponses(401) },
      },
    },
    async (request) => ({ data: { items: await service.list(requireStaff(request)) } }),
  );

  app.post(
    '/api/staff/passkeys/options',
    {
      onRequest: app.staffOnly(...ALL_ROLES),
      schema: {
        tags: ['staff'],
        summary: 'Options to add a passkey (WebAuthn creation options), after my password again',
        description:
          "422 PASSWORD_INCORRECT for a wrong password, counted with the account's failed sign-ins (429 TOO_MANY_ATTEMPTS). Answers `PublicKeyCredentialCreationOptionsJSON` for `navigator.credentials.create()`: a discoverable credential, user verification required, no attestation, my passkeys excluded. The challenge is good for 5 minutes, once, for this session.",
        security,
        body: staffPasskeyRegisterRequest,
        response: {
          200: dataEnvelope(staffPasskeyCreationOptions),
          ...errorResponses(400, 401, 422),
        },
      },
    },
    async (request) => ({
      data: {
        options: await service.registrationOptions(
          requireStaff(request),
          request.body.password,
          clientMeta(request),
        ),
      },
    }),
  );

  app.post(
    '/api/staff/passkeys',
    {
      onRequest: app.staffOnly(...ALL_ROLES),
      schema: {
        tags: ['staff'],
        summary: 'Add a passkey: the answer of navigator.credentials.create()',
        description: `The answer to this session's challenge (POST /api/staff/passkeys/options). ${REFUSALS} 409 PASSKEY_ALREADY_REGISTERED for a credential an account has. \`name\` is what the lists show (default: the browser and system of this request, "Chrome, Windows"). Audited as \`staff.passkey.create\`.`,
        security,
        body: staffPasskeyCreateRequest,
        response: { 201: dataEnvelope(passkey), ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await service.create(
          requireStaff(request),
          request.body,
          clientMeta(request).userAgent,
        ),
      }),
  );

  app.delete(
    '/api/staff/passkeys/:id',
    {
      onRequest: app.staffOnly(...ALL_ROLES),
      schema: {
        tags: ['staff'],
        summary: 'Delete one of my passkeys',
        description:
          '404 PASSKEY_NOT_FOUND when it is not one of mine. 409 STAFF_ACTION_NOT_ALLOWED for my last passkey while my role requires passkeys (I could not sign in again). Audited as `staff.passkey.delete`; my sessions go on.',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 204: z.undefined().describe('Deleted'), ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.remove(requireStaff(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/staff/accounts/:id/passkeys',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: "A staff member's passkeys (admin)",
        description: '404 NOT_FOUND for no such staff account.',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 200: dataEnvelope(staffPasskeyList), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ data: { items: await service.listOf(request.params.id) } }),
  );

  app.post(
    '/api/staff/accounts/:id/passkeys/:passkeyId/revoke',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: "Revoke a staff member's passkey (admin; a lost or stolen device)",
        description:
          "Deletes the passkey and ends every session of the member. 404 NOT_FOUND for no such account, PASSKEY_NOT_FOUND for no such passkey of theirs; 409 STAFF_ACTION_NOT_ALLOWED for one's own (DELETE /api/staff/passkeys/{id}). A member of a role that requires passkeys who has none left signs in again through `npm run operator -- staff allow-totp`. Audited as `staff.passkey.revoke` with the reason.",
        security,
        params: z.object({ id: z.uuid(), passkeyId: z.uuid() }),
        body: z.object({ reason: staffReason }),
        response: {
          204: z.undefined().describe('Revoked'),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const who = requireStaff(request);
      await service.revoke(request.params.id, request.params.passkeyId, request.body.reason, {
        actor: who.actor,
        staffUserId: who.id,
      });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/staff/role-policies',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: 'Which roles must sign in with a passkey (admin)',
        description:
          'Every role, with its active members and how many of them have no passkey (they could not sign in once passkeys are required).',
        security,
        response: { 200: dataEnvelope(staffRolePolicyList), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: { items: await service.rolePolicies() } }),
  );

  app.put(
    '/api/staff/role-policies/:role',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: "Require passkeys of a role's members, or stop requiring them (admin)",
        description:
          "Required: the role's members' sign-ins with a TOTP or recovery code are refused (401 STAFF_PASSKEY_REQUIRED), unless `npm run operator -- staff allow-totp` let one through. Sessions live now go on. 409 STAFF_ACTION_NOT_ALLOWED when an admin without a passkey requires them of admins. Audited as `staff.role_policy` with the reason.",
        security,
        params: z.object({ role: staffRole }),
        body: staffRolePolicyUpdate,
        response: { 200: dataEnvelope(staffRolePolicy), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const who = requireStaff(request);
      return {
        data: await service.setRolePolicy(request.params.role, request.body, {
          actor: who.actor,
          staffUserId: who.id,
          role: who.role,
        }),
      };
    },
  );
};
