import { z } from 'zod/mini';
import { billsResponse } from './bills';
import { okResponse } from './common';
import { staffReason } from './staff';

/*
 * A customer's monthly bills in the staff console (docs/decisions/0098-monthly-bill.md); kept
 * apart from schemas/bills.ts so the customer's app does not load the staff schemas.
 */

/** GET /api/staff/customers/{id}/bills: a customer's bills as support sees them, newest first. */
export const staffBillsResponse = billsResponse;

/** POST /api/staff/bills/{id}/resend: e-mail the bill's PDF to the customer again (audited). */
export const resendBillRequest = z.object({ reason: staffReason });
export type ResendBillRequest = z.infer<typeof resendBillRequest>;

export const resendBillResponse = z.extend(okResponse, { sentTo: z.email() });
export type ResendBillResponse = z.infer<typeof resendBillResponse>;
