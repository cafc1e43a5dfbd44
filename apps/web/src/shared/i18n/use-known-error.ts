import { useCallback } from 'react';
import { useI18n } from './use-i18n';
import type { ApiError } from '@/shared/api/http';

/** Codes whose text says nothing more than "it failed": the screen's own message says it better. */
const GENERIC_CODES = new Set(['INTERNAL', 'UNKNOWN', 'INVALID_RESPONSE', 'ROUTE_NOT_FOUND']);

/**
 * Whether an API error has a text of its own worth showing (a code of the catalogue, SPEC §8),
 * as opposed to an unknown failure, for which a screen shows its own message (e.g.
 * `transfers.failed`).
 */
export function useKnownError(): (error: Pick<ApiError, 'code'>) => boolean {
  const i18n = useI18n();
  return useCallback(
    (error) => !GENERIC_CODES.has(error.code) && i18n.exists(error.code, { ns: 'errors' }),
    [i18n],
  );
}
