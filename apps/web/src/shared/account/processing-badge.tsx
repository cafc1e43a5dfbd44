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
