import { useTranslation } from 'react-i18next';
import { ClockIcon } from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';

/**
 * SPEC §4 "Orders": a processing order (or a member it adds) is marked "in progress", and
 * "Subscription processing can take days" is said beside it.
 */
export function ProcessingBadge({ withHint = true }: { withHint?: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge tone="warning" icon={<ClockIcon className="size-3.5" />}>
      {withHint ? t('lineStatus.processingTakesDays') : t('lineStatus.processing')}
    </Badge>
  );
}

/** The same for narrow rows: the "in progress" badge, with "can take days" beside or under it. */
export function ProcessingStatus() {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <ProcessingBadge withHint={false} />
      <span className="text-caption text-mist-500">{t('lineStatus.canTakeDays')}</span>
    </span>
  );
}
