import { z } from 'zod/mini';

/**
 * Building blocks shared by the domain schemas: money in integer øre, data in integer MB, UTC
 * timestamps as ISO 8601 strings (ARCHITECTURE "Conventions").
 */

/** An instant, ISO 8601 with offset (the API always sends UTC, `…Z`). */
export const isoDateTime = z.iso.datetime({ offset: true });

/** An id of a stored row. Opaque to clients: compare, never parse. */
export const id = z.string().check(z.minLength(1), z.maxLength(64));

/** An amount of money in øre (1 kr. = 100 øre). */
export const oere = z.int();

/** A data amount in MB (1024 MB per GB; ≥ 1,024,000 MB shows as unlimited). */
export const mb = z.int().check(z.nonnegative());

/** A price with and without VAT (SPEC §9 "VAT shown separately"); net + vat = gross. */
export const priceBreakdown = z
  .object({ net: oere, vat: oere, gross: oere })
  .check(z.refine((p) => p.net + p.vat === p.gross, { error: 'INVALID', path: ['vat'] }));
export type PriceBreakdown = z.infer<typeof priceBreakdown>;

/** Answer of a command that has nothing to return. */
export const okResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponse>;

/**
 * Header that makes a retried mutation safe (ARCHITECTURE "Every mutation that can be retried by
 * a client takes an idempotency key"): the same key within 24 hours returns the first answer.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const idempotencyKey = z.string().check(z.minLength(8), z.maxLength(128));

/** `{ id }` path parameter. */
export const idParams = z.object({ id });
export type IdParams = z.infer<typeof idParams>;
