import { z } from 'zod';
import { ERROR_CODES } from './errors';

/** Every successful API answer is `{ data }` (ARCHITECTURE "Conventions"). */
export const dataEnvelope = <T extends z.ZodType>(data: T) => z.object({ data });

/** Every failed API answer is `{ error: { code, message } }`; `field` names the bad input. */
export const errorEnvelope = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    field: z.string().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
