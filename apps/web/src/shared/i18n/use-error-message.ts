import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ApiError } from '@/shared/api/http';

/**
 * The text of an API error in the current language: the contract's message for its code
 * (namespace `errors`), else the server's own (already localized) message.
 */
export function errorMessageOf(t: TFunction, error: Pick<ApiError, 'code' | 'message'>): string {
  return t(error.code, {
    ns: 'errors',
    defaultValue: error.message || t('UNKNOWN', { ns: 'errors' }),
  });
}

/** {@link errorMessageOf} with the current language's `t`. */
export function useErrorMessage(): (error: Pick<ApiError, 'code' | 'message'>) => string {
  const { t } = useTranslation();
  return useCallback((error) => errorMessageOf(t, error), [t]);
}
