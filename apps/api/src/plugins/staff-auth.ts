import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '@alda/contract/schemas/staff';
import { AppError } from '../errors';

/*
 * Guards of `/api/staff/*` (docs/decisions/0075-staff-console.md). A staff route names the roles
 * that may use it: `{ onRequest: app.staffOnly('provisioning') }`; `admin` may use every staff
 * route. The bearer token is a staff session token: a customer's JWT is refused here (401), and a
 * staff token is refused on customer routes (it is not a JWT).
 */

export interface StaffCaller {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  createdAt: Date;
  /** `staff:<email>`, as the audit log names them. */
  actor: string;
  sessionId: string;
  idleExpiresAt: Date;
  expiresAt: Date;
}

export interface StaffTokenVerifier {
  /** `background`: a request the console made on its own (a refresh), which keeps no session alive. */
  authenticate(token: string, background: boolean): Promise<StaffCaller | null>;
}

/**
 * The console marks the requests it makes on its own — a screen's refresh while nobody touched
 * keyboard, mouse or screen — with this header; they do not restart the 15-minute idle clock.
 */
export const STAFF_BACKGROUND_HEADER = 'x-staff-background';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: a signed-in staff member of one of `roles` (or admin); else 401 / 403. */
    staffOnly(
      ...roles: StaffRole[]
    ): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    staff: StaffCaller | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The bearer token of a request, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

export function installStaffAuthentication(
  app: FastifyInstance,
  verifier: StaffTokenVerifier,
): void {
  app.decorateRequest('staff', null);
  app.decorate(
    'staffOnly',
    (...roles: StaffRole[]) =>
      async (request: FastifyRequest, reply: FastifyReply) => {
        const token = bearerToken(request);
        const background = request.headers[STAFF_BACKGROUND_HEADER] === '1';
        const staff = token ? await verifier.authenticate(token, background) : null;
        if (!staff) {
          reply.header('www-authenticate', 'Bearer realm="alda-staff"');
          throw new AppError(token ? 'STAFF_SESSION_EXPIRED' : 'UNAUTHORIZED', {
            detail: token ? 'no live staff session for this token' : 'no bearer token',
          });
        }
        if (staff.role !== 'admin' && !roles.includes(staff.role)) {
          throw new AppError('FORBIDDEN', {
            detail: `staff role ${staff.role}; needs ${roles.join(' or ') || 'admin'}`,
          });
        }
        request.staff = staff;
        // Staff answers hold personal data: never kept by a browser or a proxy.
        reply.header('cache-control', 'no-store');
      },
  );
}

/** The staff member of a route guarded by `app.staffOnly`. */
export function requireStaff(request: FastifyRequest): StaffCaller {
  if (!request.staff)
    throw new AppError('UNAUTHORIZED', { detail: 'staff route without staffOnly' });
  return request.staff;
}
