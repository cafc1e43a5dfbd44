import { ERROR_STATUS, type ErrorCode } from '@alda/contract/errors';

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

  constructor(code: ErrorCode, options: { field?: string; detail?: string; cause?: unknown } = {}) {
    super(options.detail ?? code, { cause: options.cause });
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.field = options.field;
  }
}
