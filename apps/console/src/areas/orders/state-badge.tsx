import { useTranslation } from 'react-i18next';
import type { StaffOrderState } from '@alda/contract/schemas/staff-orders';
import { Badge, type BadgeTone } from '@/shared/ui/badge';

const TONE: Record<StaffOrderState, BadgeTone> = {
  'waiting-network': 'info',
  'waiting-customer': 'warning',
  rejected: 'danger',
  'month-end': 'neutral',
  failed: 'danger',
  complete: 'success',
  cancelled: 'neutral',
};

/** Where an order stands, as a coloured label. */
export function OrderStateBadge({ state }: { state: StaffOrderState }) {
  const { t } = useTranslation('orders');
  return <Badge tone={TONE[state]}>{t(`state.${state}`)}</Badge>;
}
