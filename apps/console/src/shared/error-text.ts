import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES, type ErrorCode } from '@alda/contract/errors';
import { isApiError } from './api';

const isErrorCode = (code: string): code is ErrorCode =>
  (ERROR_CODES as readonly string[]).includes(code);

/**
 * The text of a failed call, in the language shown: the server's own message (it answers in the
 * Accept-Language the call sent), else the contract's message of the code, else a general one.
 */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation(['common', 'errors']);
  return useCallback(
    (error: unknown) => {
      if (!isApiError(error)) return t('errors.unknown');
      if (error.code === 'NETWORK') return t('errors.network');
      if (error.message) return error.message;
      return isErrorCode(error.code) ? t(`errors:${error.code}`) : t('errors.unknown');
    },
    [t],
  );
}
