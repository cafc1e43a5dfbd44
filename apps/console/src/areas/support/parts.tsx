import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { AlarmClock } from 'lucide-react';
import type { SupportState, SupportSubject } from '@alda/contract/schemas/support';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { ageOf, formatDateTime, referenceText } from './format';

/* Small pieces the support area's screens share: the subject, the age, late, the state. */

/** "Order 55 78 13", "Receipt 2026-000123", "General question". */
export function useSubjectText(): (subject: SupportSubject) => string {
  const { t } = useTranslation('support');
  return useCallback(
    (subject: SupportSubject) => {
      const reference = referenceText(subject);
      if (subject.type === 'general' || !reference) return t(`subject.bare.${subject.type}`);
      return t(`subject.with.${subject.type}`, { reference });
    },
    [t],
  );
}

/** The customer's name, or what stands for it once the customer was deleted. */
export function useCustomerLabel(): (name: string | null) => string {
  const { t } = useTranslation('support');
  return useCallback((name: string | null) => name ?? t('customer.anonymised'), [t]);
}

/** "3 h ago", with the exact time (Tórshavn) as its title and for assistive technology. */
export function AgeText({ since, now }: { since: string; now: number }) {
  const { t } = useTranslation('support');
  const age = ageOf(since, now);
  const text =
    age.unit === 'justNow' ? t('age.justNow') : t(`age.${age.unit}`, { count: age.count });
  return (
    <time dateTime={since} title={formatDateTime(since)} className="whitespace-nowrap">
      {text}
    </time>
  );
}

/** Late: past its first-reply due time and not answered — an icon and the word, not colour alone. */
export function LateBadge() {
  const { t } = useTranslation('support');
  return (
    <Badge tone="danger" icon={<AlarmClock aria-hidden="true" className="size-3.5" />}>
      {t('late')}
    </Badge>
  );
}

const STATE_TONES: Record<SupportState, BadgeTone> = {
  open: 'warning',
  waiting: 'info',
  closed: 'neutral',
};

export function StateBadge({ state }: { state: SupportState }) {
  const { t } = useTranslation('support');
  return <Badge tone={STATE_TONES[state]}>{t(`state.${state}`)}</Badge>;
}
