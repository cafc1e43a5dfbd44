import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EuPackageOffer } from '@alda/contract/schemas/plans';
import type { PatchSubscriptionsRequest } from '@alda/contract/schemas/family-members';
import { account } from '@alda/contract/schemas/subscriptions';
import { accountKeys } from '@/shared/api/account-data';
import { useFormatters } from '@/shared/format/use-formatters';
import { useAppServices } from '@/shared/services/app-services';
import { Card } from '@/shared/ui/card';
import { useModal } from '@/shared/ui/modal/modal-context';
import { Switch } from '@/shared/ui/switch';
import { useToast } from '@/shared/ui/toast/toast-context';

/**
 * The EU/roaming package of the account (owner only): a switch with the package's monthly price,
 * confirmed in a modal, saved with PATCH /subscriptions { euPackage }; the account data is then
 * fetched again, so every screen shows the new state and price.
 */
export function EuPackageToggle({
  on,
  offer,
  line,
}: {
  on: boolean;
  offer: EuPackageOffer;
  /** The owner's own number on the account, so the API toggles this account (query `line`). */
  line: string;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const price = f.kr(offer.price, { sign: 'always', decimals: 'auto' });

  const toggle = async (next: boolean) => {
    const confirmed = await modal.confirm(
      next
        ? {
            title: t('euPackage.addTitle'),
            message: t('euPackage.addBody', { price, data: f.data(offer.dataMb) }),
            confirmLabel: t('euPackage.add'),
          }
        : {
            title: t('euPackage.removeTitle'),
            message: t('euPackage.removeBody'),
            confirmLabel: t('euPackage.remove'),
            tone: 'danger',
          },
    );
    if (!confirmed) return;
    setSaving(true);
    const body: PatchSubscriptionsRequest = { euPackage: next };
    const result = await http.patch('/subscriptions', body, account, { query: { line } });
    if (result.ok) await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    setSaving(false);
    if (!result.ok) {
      toast.show({ type: 'error', message: t('euPackage.updateFailed') });
      return;
    }
    toast.show({ type: 'info', message: next ? t('euPackage.added') : t('euPackage.removed') });
  };

  return (
    <Card>
      <Switch
        label={t('euPackage.label')}
        description={t('euPackage.description', { price, data: f.data(offer.dataMb) })}
        checked={on}
        disabled={saving}
        aria-busy={saving || undefined}
        onChange={(event) => void toggle(event.currentTarget.checked)}
      />
    </Card>
  );
}
