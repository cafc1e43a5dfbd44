import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
// The contract's schemas are zod/mini objects, which have no `.omit()` method.
import { omit } from 'zod/mini';
import { dataEnvelope } from '@alda/contract/envelope';
import {
  auditPage,
  auditQuery,
  staffCreateRequest,
  staffEnrolment,
  staffList,
  staffMe,
  staffMember,
  staffReason,
  staffSession,
  staffSignInRequest,
  staffUpdateRequest,
} from '@alda/contract/schemas/staff';
import { clientMeta, errorResponses } from '../../http';
import { bearerToken, requireStaff } from '../../plugins/staff-auth';
import { auditCsv, listAudit } from '../operator/audit';
import type { Db } from '../../db/client';
import type { StaffService } from './service';

/*
 * Staff sign-in, staff accounts (admin) and the audit log (admin) — `/api/staff/*`, tag `staff`
 * (docs/decisions/0075-staff-console.md). Other staff areas have their own route files.
 */

const security = [{ staffBearer: [] }];
const byId = z.object({ id: z.uuid() });

export const staffRoutes: FastifyPluginAsyncZod<{ service: StaffService; db: Db }> = async (
  app,
  { service, db },
) => {
  app.post(
    '/api/staff/auth/sign-in',
    {
      schema: {
        tags: ['staff'],
        summary: 'Staff sign-in: e-mail, password and a TOTP code or a passkey in one call',
        description:
          "Password (argon2id) and exactly one second factor: `totpCode`, an RFC 6238 code of the authenticator app (or a single-use recovery code `xxxxx-xxxxx`), or `passkey`, the answer of `navigator.credentials.get()` to the challenge of POST /api/staff/auth/passkey-options (ADR 0097). A code accepted once is refused a second time. A wrong e-mail, password or code is 401 STAFF_SIGN_IN_FAILED; failed attempts are limited per address and account as for customers (429 TOO_MANY_ATTEMPTS). With the right password: a code of a member whose role requires passkeys is 401 STAFF_PASSKEY_REQUIRED (nothing is spent) unless `npm run operator -- staff allow-totp` let one TOTP sign-in through within its hour; a passkey that is not one of this member's is 401 PASSKEY_NOT_RECOGNISED, a counter that did not rise 401 PASSKEY_COUNTER_INVALID, and a refused answer 400 PASSKEY_CHALLENGE_INVALID, PASSKEY_CHALLENGE_EXPIRED, PASSKEY_ORIGIN_MISMATCH, PASSKEY_RP_MISMATCH, PASSKEY_USER_NOT_VERIFIED or PASSKEY_INVALID; a refusal changes nothing. Answers an opaque staff token: 15 minutes idle, 8 hours at most.",
        body: staffSignInRequest,
        response: { 200: dataEnvelope(staffSession), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ data: await service.signIn(request.body, clientMeta(request)) }),
  );

  app.get(
    '/api/staff/auth/me',
    {
      onRequest: app.staffOnly('support', 'provisioning', 'content'),
      schema: {
        tags: ['staff'],
        summary: 'The signed-in staff member and the session limits',
        security,
        response: { 200: dataEnvelope(staffMe), ...errorResponses(401) },
      },
    },
    async (request) => {
      const who = requireStaff(request);
      return {
        data: {
          staff: {
            id: who.id,
            email: who.email,
            name: who.name,
            role: who.role,
            // A disabled account has no live session, so the signed-in member is never disabled.
            disabledAt: null,
            createdAt: who.createdAt.toISOString(),
          },
          idleExpiresAt: who.idleExpiresAt.toISOString(),
          expiresAt: who.expiresAt.toISOString(),
        },
      };
    },
  );

  app.post(
    '/api/staff/auth/sign-out',
    {
      onRequest: app.staffOnly('support', 'provisioning', 'content'),
      schema: {
        tags: ['staff'],
        summary: 'End this staff session',
        security,
        response: { 204: z.undefined(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      if (token) await service.signOut(token);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/staff/auth/sign-out-everywhere',
    {
      onRequest: app.staffOnly('support', 'provisioning', 'content'),
      schema: {
        tags: ['staff'],
        summary: 'End every session of the signed-in staff member',
        security,
        response: { 204: z.undefined(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      await service.signOutEverywhere(requireStaff(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/staff/accounts',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: 'Staff accounts (admin)',
        security,
        response: { 200: dataEnvelope(staffList), ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: { items: await service.list() } }),
  );

  app.post(
    '/api/staff/accounts',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: 'Add a staff member (admin)',
        description:
          'Creates the account with a first password, a TOTP secret (`otpauthUri` for the QR code) and ten recovery codes, shown once in this answer. 409 STAFF_EXISTS.',
        security,
        body: staffCreateRequest,
        response: { 201: dataEnvelope(staffEnrolment), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const who = requireStaff(request);
      const data = await service.create(request.body, { actor: who.actor, staffUserId: who.id });
      return reply.status(201).send({ data });
    },
  );

  app.patch(
    '/api/staff/accounts/:id',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: "Change a staff member's role, or disable / enable the account (admin)",
        description:
          "Ends the account's sessions. An admin cannot disable or demote themselves (409).",
        security,
        params: byId,
        body: staffUpdateRequest,
        response: { 200: dataEnvelope(staffMember), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const who = requireStaff(request);
      return {
        data: await service.update(request.params.id, request.body, {
          actor: who.actor,
          staffUserId: who.id,
        }),
      };
    },
  );

  app.post(
    '/api/staff/accounts/:id/reenrol',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: 'New TOTP secret and recovery codes for a staff member (admin; a lost phone)',
        security,
        params: byId,
        body: z.object({ reason: staffReason }),
        response: { 200: dataEnvelope(staffEnrolment), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const who = requireStaff(request);
      return {
        data: await service.reenrol(request.params.id, request.body.reason, {
          actor: who.actor,
          staffUserId: who.id,
        }),
      };
    },
  );

  app.get(
    '/api/staff/audit',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: 'The audit log (admin): staff reads of personal data and every change',
        description:
          'Newest first; filter by actor (contains), action (prefix), target id and time; page with `before`.',
        security,
        querystring: auditQuery,
        response: { 200: dataEnvelope(auditPage), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ data: await listAudit(db, request.query) }),
  );

  app.get(
    '/api/staff/audit.csv',
    {
      onRequest: app.staffOnly(),
      schema: {
        tags: ['staff'],
        summary: 'The audit log as CSV (admin), with the same filters',
        security,
        querystring: omit(auditQuery, { before: true, limit: true }),
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const lines: string[] = [];
      for await (const chunk of auditCsv(db, request.query)) lines.push(chunk);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="alda-audit.csv"')
        .send(lines.join(''));
    },
  );
};
