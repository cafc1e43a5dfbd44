import { useTranslation } from 'react-i18next';
import type { StaffPaymentState, StaffRefundState } from '@alda/contract/schemas/staff-payments';
import { Badge, type BadgeTone } from '@/shared/ui/badge';

/* The states of payments and refunds as labels (the console's Badge). */

const PAYMENT_TONES: Record<StaffPaymentState, BadgeTone> = {
  created: 'neutral',
  pending: 'warning',
  paid: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

export function PaymentStateBadge({ state }: { state: StaffPaymentState }) {
  const { t } = useTranslation('payments');
  return <Badge tone={PAYMENT_TONES[state]}>{t(`state.${state}`)}</Badge>;
}

const REFUND_TONES: Record<StaffRefundState, BadgeTone> = {
  pending: 'warning',
  refunded: 'success',
  failed: 'danger',
};

export function RefundStateBadge({ state }: { state: StaffRefundState }) {
  const { t } = useTranslation('payments');
  return <Badge tone={REFUND_TONES[state]}>{t(`refunds.states.${state}`)}</Badge>;
}
