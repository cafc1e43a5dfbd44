import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillStateValue } from '@alda/contract/schemas/bills';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { OpenIcon, OverdueIcon, PaidIcon, PartlyPaidIcon } from './bill-icons';

const LOOK: Record<BillStateValue, { tone: BadgeTone; icon: ReactNode }> = {
  open: { tone: 'info', icon: <OpenIcon className="size-3.5" strokeWidth={2.4} /> },
  paid: { tone: 'success', icon: <PaidIcon className="size-3.5" strokeWidth={2.4} /> },
  partly_paid: {
    tone: 'warning',
    icon: <PartlyPaidIcon className="size-3.5" strokeWidth={2.4} />,
  },
  overdue: { tone: 'danger', icon: <OverdueIcon className="size-3.5" strokeWidth={2.4} /> },
};

/** A bill's state: its word, an icon of its own and a colour, so colour is never all it says. */
export function BillStateBadge({ state }: { state: BillStateValue }) {
  const { t } = useTranslation();
  const look = LOOK[state];
  return (
    <Badge tone={look.tone} icon={look.icon}>
      {t(`bills.state.${state}`)}
    </Badge>
  );
}
