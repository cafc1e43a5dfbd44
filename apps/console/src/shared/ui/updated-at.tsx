import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { clockTime } from '../format';
import { localeOf } from '../i18n';

/**
 * "Dagført kl. 14:05:09": when a screen's data was last brought up to date (a query's
 * `dataUpdatedAt`). A paragraph by default; `as="span"` where it sits in a line of other things.
 */
export function UpdatedAt({
  at,
  as: Element = 'p',
  ...props
}: { at: number; as?: 'p' | 'span' } & Omit<HTMLAttributes<HTMLElement>, 'children'>) {
  const { t, i18n } = useTranslation();
  return <Element {...props}>{t('updatedAt', { time: clockTime(at, localeOf(i18n)) })}</Element>;
}
