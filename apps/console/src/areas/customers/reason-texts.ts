import type { useTranslation } from 'react-i18next';
import type { ReasonDialogTexts } from '@/shared/ui/reason-dialog';

/**
 * The texts of the shared reason form and dialog in the customers area (its `reason.*` keys),
 * with what the confirming button says and what is said while the call runs.
 */
export function reasonTexts(
  t: ReturnType<typeof useTranslation<'customers'>>['t'],
  confirm: string,
  pending: string,
): ReasonDialogTexts {
  return {
    label: t('reason.label'),
    placeholder: t('reason.placeholder'),
    hint: t('reason.hint'),
    required: t('reason.required'),
    cancel: t('reason.cancel'),
    confirm,
    pending,
  };
}
