import { useState } from 'react';
import {
  USAGE_ALERT_DEFAULTS,
  type UsageAlertSwitches,
  type User,
} from '@alda/contract/schemas/auth';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Card } from '@/shared/ui/card';
import { Switch } from '@/shared/ui/switch';
import { useToast } from '@/shared/ui/toast/toast-context';
import { updateUser } from '@/shared/auth/update-user';

/** The e-mail switch (`usageAlerts.email`) is the settings' `usage` / `email` cell instead. */
type AlertSwitch = Exclude<keyof UsageAlertSwitches, 'email'>;

/**
 * The usage alert switches of the profile (ADR 0066): a notification when a line of the
 * customer's — or of their family, for the owner — passes 80 % and 100 % of its month's data.
 * How they reach the customer (push, e-mail) is the notification settings' `usage` row
 * (notification-settings.tsx, issue 64), their one home. Each switch is saved at once with
 * PATCH /auth/me; the switch shows the saved state, so a failed save (offline, say) leaves it as
 * it was and says so.
 */
export function UsageAlertSettings({ user }: { user: User }) {
  const { t } = useTranslation();
  const { http, session } = useAppServices();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [saving, setSaving] = useState<AlertSwitch | null>(null);
  const current = user.usageAlerts ?? USAGE_ALERT_DEFAULTS;

  const change = async (name: AlertSwitch, on: boolean) => {
    if (saving) return;
    setSaving(name);
    const saved = await updateUser(http, { usageAlerts: { [name]: on } });
    setSaving(null);
    if (!saved.ok) {
      toast.show({
        type: 'error',
        message: `${t('profile.alerts.failed')} ${errorMessage(saved.error)}`,
      });
      return;
    }
    session.setUser(saved.data);
    toast.show({ type: 'info', message: t('profile.alerts.saved') });
  };

  const rows: { name: AlertSwitch; label: string; description: string }[] = [
    { name: 'at80', label: t('profile.alerts.at80'), description: t('profile.alerts.at80Hint') },
    { name: 'at100', label: t('profile.alerts.at100'), description: t('profile.alerts.at100Hint') },
  ];

  return (
    <Card role="region" aria-labelledby="usage-alerts-title" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="usage-alerts-title" className="text-heading font-bold text-ocean-950">
          {t('profile.alerts.title')}
        </h2>
        <p className="text-caption text-mist-700">{t('profile.alerts.lead')}</p>
      </div>
      {rows.map((row) => (
        <Switch
          key={row.name}
          label={row.label}
          description={row.description}
          checked={current[row.name]}
          disabled={saving !== null}
          aria-busy={saving === row.name || undefined}
          onChange={(event) => void change(row.name, event.currentTarget.checked)}
        />
      ))}
      <p className="text-caption text-mist-700">{t('profile.alerts.channels')}</p>
    </Card>
  );
}
