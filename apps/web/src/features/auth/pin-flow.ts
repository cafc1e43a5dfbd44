import { z } from 'zod/mini';
import type { RequestPinResponse } from '@alda/contract/schemas/auth-register';

/**
 * What the code screen needs from the number screen, carried in the history entry's state: the
 * number the code went to and when (epoch ms) it may be resent and stops working. Instants, not
 * durations, so a reload of /rita-inn/pin keeps the countdown where it was.
 */
export const pinFlowState = z.object({
  phoneNumber: z.string().check(z.regex(/^\d{6}$/)),
  resendAt: z.number(),
  expiresAt: z.number(),
});
export type PinFlowState = z.infer<typeof pinFlowState>;

/** The flow state after a code was sent; `now` is when the answer arrived. */
export function pinFlowAfterRequest(
  phoneNumber: string,
  answer: RequestPinResponse,
  now = Date.now(),
): PinFlowState {
  return {
    phoneNumber,
    // SPEC §9 leaves the countdown open; the server says how long (RESEND_CODE_COUNTDOWN_S, 60 s).
    resendAt: now + answer.resendAfter * 1000,
    expiresAt: now + answer.expiresIn * 1000,
  };
}
