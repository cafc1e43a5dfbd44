import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import type { ApiError } from '@/shared/api/http';

/**
 * The text of a field's error in the current language. Field errors hold a key, never a text:
 * a contract validation key (SPEC §5, namespace `validation`) or an API error code put on a field
 * by {@link applyServerErrors} (namespace `errors`). Keys stay keys, so switching the language
 * re-translates errors already shown.
 */
export function useFieldMessage(): (key: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (key) => (key ? t(key, { ns: ['validation', 'errors'], defaultValue: key }) : undefined),
    [t],
  );
}

/**
 * Marks the form fields an API error is about: every `issues` entry of a VALIDATION_FAILED answer
 * whose path is one of `fields`, or the single `field` of a domain error (with its code as key).
 * Returns true when at least one field was marked, so the screen can skip its general message.
 */
export function applyServerErrors<T extends FieldValues>(
  error: ApiError,
  setError: UseFormSetError<T>,
  fields: readonly FieldPath<T>[],
): boolean {
  const known = (path: string | undefined): path is FieldPath<T> =>
    path !== undefined && (fields as readonly string[]).includes(path);
  let marked = false;
  for (const issue of error.issues ?? []) {
    if (!known(issue.path)) continue;
    setError(issue.path, { type: 'server', message: issue.key }, { shouldFocus: !marked });
    marked = true;
  }
  if (!marked && known(error.field)) {
    setError(error.field, { type: 'server', message: error.code }, { shouldFocus: true });
    marked = true;
  }
  return marked;
}
