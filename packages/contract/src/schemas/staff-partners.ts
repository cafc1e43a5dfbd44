import { z } from 'zod/mini';
import { partnerScope } from './camara';
import { staffReason } from './staff';

/*
 * The staff console's partner clients (issue 32: banks using the CAMARA SIM Swap API with
 * OAuth 2.0 client credentials). Admin only. The client secret is shown once, when made.
 */

export const staffPartner = z.object({
  id: z.uuid(),
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  disabledAt: z.nullable(z.string()),
  /** The partner's latest CAMARA call, and how many it made (partner_calls). */
  lastCallAt: z.nullable(z.string()),
  callCount: z.int(),
});
export type StaffPartner = z.infer<typeof staffPartner>;

export const staffPartnerList = z.object({ items: z.array(staffPartner) });
export type StaffPartnerList = z.infer<typeof staffPartnerList>;

/** POST /api/staff/partners */
export const staffPartnerCreateRequest = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  scopes: z.array(partnerScope).check(z.minLength(1), z.maxLength(3)),
});
export type StaffPartnerCreateRequest = z.infer<typeof staffPartnerCreateRequest>;

/** The new client with its secret: shown this once, kept only as a SHA-256 digest. */
export const staffPartnerCreated = z.object({
  partner: staffPartner,
  clientSecret: z.string(),
});
export type StaffPartnerCreated = z.infer<typeof staffPartnerCreated>;

/** POST /api/staff/partners/:clientId/disable */
export const staffPartnerParams = z.object({
  clientId: z.string().check(z.minLength(1), z.maxLength(100)),
});
export const staffPartnerDisableRequest = z.object({ reason: staffReason });
export type StaffPartnerDisableRequest = z.infer<typeof staffPartnerDisableRequest>;
