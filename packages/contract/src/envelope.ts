import { z } from 'zod/mini';
import { ERROR_CODES } from './errors';
import { VALIDATION_KEYS } from './rules/messages';

/** Every successful API answer is `{ data }` (ARCHITECTURE "Conventions"). */
export const dataEnvelope = <T extends z.core.$ZodType>(data: T) => z.object({ data });

/**
 * Every failed API answer is `{ error: { code, message } }`; `field` names the bad input.
 * A VALIDATION_FAILED answer may list every failed field in `issues` (see `toFieldIssues` in
 * `rules/messages.ts`), so a form can mark them all at once.
 */
export const errorEnvelope = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    field: z.optional(z.string()),
    /** Seconds until trying again makes sense (429 answers: PIN_RESEND_TOO_SOON, TOO_MANY_ATTEMPTS). */
    retryAfter: z.optional(z.int().check(z.nonnegative())),
    issues: z.optional(
      z.array(z.object({ path: z.string(), key: z.enum(VALIDATION_KEYS), message: z.string() })),
    ),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
