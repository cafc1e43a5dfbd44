import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffPaymentState, StaffRefundState } from '@alda/contract/schemas/staff-payments';
import { cx } from '@/shared/cx';

/** A small label with a tone: states of payments and refunds, the reconciliation verdict. */
export type BadgeTone = 'success' | 'warning' | 'danger' | 'neutral' | 'info';

const TONES: Record<BadgeTone, string> = {
  success: 'bg-success-50 text-success-600 ring-success-600/25',
  warning: 'bg-warning-50 text-warning-600 ring-warning-600/25',
  danger: 'bg-danger-50 text-danger-700 ring-danger-600/25',
  neutral: 'bg-mist-100 text-mist-700 ring-mist-300',
  info: 'bg-ocean-50 text-ocean-800 ring-ocean-200',
};

export function Badge({
  tone,
  icon,
  children,
  className,
}: {
  tone: BadgeTone;
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-caption font-semibold whitespace-nowrap ring-1 ring-inset',
        TONES[tone],
        className,
      )}
    >
      {icon}
      {children}
    </span>
  );
}

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
