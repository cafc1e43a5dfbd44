import type { ApiError } from '@/shared/api/http';

/*
 * What the passkey ceremonies (the browser's WebAuthn dialogs, ADR 0097) end in, for the screens:
 * done, cancelled — the person closed the dialog, it timed out, or the app stopped it — which
 * nothing is said about, or failed with an error to show. The browser's own failures have no
 * API code: `UNKNOWN`, for which a screen shows its own sentence (as the e-mail login does).
 */

export type PasskeyResult<T> =
  { status: 'done'; data: T } | { status: 'cancelled' } | { status: 'failed'; error: ApiError };

export const failed = (error: ApiError): PasskeyResult<never> => ({ status: 'failed', error });

/** A failure of the device rather than of the API: the screen says it in its own words. */
export const deviceFailure = (code = 'UNKNOWN'): ApiError => ({ code, message: '', status: 0 });

/**
 * Whether a WebAuthn call ended because nobody went on with it: `NotAllowedError` (the dialog
 * closed or timed out; browsers give no more detail, on purpose) or `AbortError` (the app
 * cancelled it, or a newer ceremony replaced it). Silent on every screen.
 */
export function ceremonyCancelled(error: unknown): boolean {
  return (
    error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')
  );
}
