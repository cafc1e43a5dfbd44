import type { ApiError } from './http';
import { ApiRequestError } from './http';

/** The API error behind a failed query (ApiRequestError), or a generic one for anything else. */
export function apiErrorOf(error: unknown): Pick<ApiError, 'code' | 'message' | 'status'> {
  if (error instanceof ApiRequestError) return error.error;
  return { code: 'UNKNOWN', message: '', status: 0 };
}
