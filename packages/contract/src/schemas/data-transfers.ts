import { z } from 'zod/mini';
import { phoneNumber, phoneNumberInput } from '../rules/phone';
import { id, isoDateTime, mb } from './common';

/** A gift moves data at once; a request waits for the other customer to approve it. */
export const dataTransferKind = z.enum(['gift', 'request']);
export type DataTransferKind = z.infer<typeof dataTransferKind>;

/** SPEC §4 "Data request": pending, then approved or declined (declining deletes it). */
export const dataTransferStatus = z.enum(['pending', 'approved', 'declined']);
export type DataTransferStatus = z.infer<typeof dataTransferStatus>;

const party = z.object({
  phoneNumber,
  /** Name as the other side may see it; null when the number's owner hides it. */
  name: z.nullable(z.string()),
});

/** SPEC §3 "Data transfer": id, requester.phoneNumber, dataAmount (MB). */
export const dataTransfer = z.object({
  id,
  kind: dataTransferKind,
  status: dataTransferStatus,
  /** Who asks for data (request) or who gives it (gift). */
  requester: party,
  /** Who is asked to give (request) or who receives (gift). */
  recipient: party,
  dataAmount: mb.check(z.positive()),
  createdAt: isoDateTime,
  decidedAt: z.nullable(isoDateTime),
});
export type DataTransfer = z.infer<typeof dataTransfer>;

/** GET /api/data-transfers: the pending requests addressed to the caller, oldest first. */
export const dataTransfersResponse = z.array(dataTransfer);
export type DataTransfersResponse = z.infer<typeof dataTransfersResponse>;

/**
 * POST /api/data-transfers: give data to a number, or ask a number for data. Errors:
 * SELF_REQUEST, NUMBER_NOT_FOUND, REQUEST_NOT_ALLOWED, INSUFFICIENT_DATA, GIVE_LIMIT_REACHED.
 * Send an `Idempotency-Key` header. Answer: the created dataTransfer.
 */
export const createDataTransferRequest = z.object({
  kind: dataTransferKind,
  /** The caller's own number that gives or receives (a user may have several). */
  fromPhoneNumber: phoneNumberInput,
  /** The other customer's number. */
  phoneNumber: phoneNumberInput,
  dataAmount: z.number({ error: 'REQUIRED' }).check(z.int('INVALID'), z.positive('INVALID')),
});
export type CreateDataTransferRequest = z.output<typeof createDataTransferRequest>;
