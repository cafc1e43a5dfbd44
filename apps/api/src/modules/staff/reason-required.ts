import type { FastifyRequest } from 'fastify';
import { staffReason } from '@alda/contract/schemas/staff';
import { AppError } from '../../errors';

/**
 * preValidation of a staff change that needs a reason: without a usable one it is
 * STAFF_REASON_REQUIRED (its own message: "give a ticket or call reference"), before the
 * schema's general VALIDATION_FAILED.
 */
export async function reasonRequired(request: FastifyRequest): Promise<void> {
  const body = request.body as { reason?: unknown } | null | undefined;
  if (!staffReason.safeParse(body?.reason).success) {
    throw new AppError('STAFF_REASON_REQUIRED', { field: 'reason', detail: 'no usable reason' });
  }
}
