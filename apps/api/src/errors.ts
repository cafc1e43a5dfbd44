import { ERROR_STATUS, type ErrorCode } from '@alda/contract/errors';
import type { ValidationKey } from '@alda/contract/rules/messages';

/**
 * A failure with a stable contract code. Services throw it; the error handler turns it into the
 * `{ error: { code, message, field? } }` envelope with the code's HTTP status and a message in
 * the caller's language. The `detail` is for logs only and never reaches the client.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly field: string | undefined;
  /** Seconds until a retry makes sense; sent as `retryAfter` and the `Retry-After` header. */
  readonly retryAfter: number | undefined;
  /**
   * For a VALIDATION_FAILED that a service finds (not the schema): the SPEC §5 message key of
   * the field, so the message names the problem instead of the generic validation text.
   */
  readonly validationKey: ValidationKey | undefined;

  constructor(
    code: ErrorCode,
    options: {
      field?: string;
      detail?: string;
      cause?: unknown;
      retryAfter?: number;
      validationKey?: ValidationKey;
    } = {},
  ) {
    super(options.detail ?? code, { cause: options.cause });
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.field = options.field;
    this.retryAfter =
      options.retryAfter === undefined ? undefined : Math.max(0, Math.ceil(options.retryAfter));
    this.validationKey = options.validationKey;
  }
}
