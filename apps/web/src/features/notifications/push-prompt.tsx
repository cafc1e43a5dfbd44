import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NotificationItem } from '@alda/contract/schemas/notifications';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { preferences, type KeyValueStorage } from '@/shared/native/preferences';
import { notificationSettingsQueries } from '@/shared/push/notification-settings-api';
import { useDevicePush } from '@/shared/push/use-device-push';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { PhoneIcon } from '@/shared/ui/icons';
import { useToast } from '@/shared/ui/toast/toast-context';

/** Device key: the customer answered "not now" (or refused) to the offer; it is not made again. */
export const PUSH_PROMPT_DISMISSED_KEY = 'alda.pushPrompt.dismissed';

/**
 * Whether the offer was turned down on this device: null while it is read. Read only once there is
 * something to offer it for (`wanted`).
 */
function useDismissed(wanted: boolean, storage: KeyValueStorage) {
  const [dismissed, setDismissed] = useState<boolean | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    storage.get(PUSH_PROMPT_DISMISSED_KEY).then(
      (value) => current && setDismissed(value !== null),
      () => current && setDismissed(false),
    );
    return () => {
      current = false;
    };
  }, [wanted, storage]);
  const dismiss = () => {
    setDismissed(true);
    void storage.set(PUSH_PROMPT_DISMISSED_KEY, new Date().toISOString()).catch(() => {});
  };
  return [dismissed, dismiss] as const;
}

/**
 * The offer to get notices as pushes on this device (issue 64: "asked at the right moment, not at
 * first open"): shown on the notifications screen once the customer has had a usage alert — the
 * moment a push would have helped — when this device can have pushes, has none yet and the
 * customer has not said "not now" here. "Set á" asks for the permission and registers the device;
 * a refusal is remembered like "not now". Nothing is fetched until there is a usage alert.
 */
export function PushPrompt({
  items,
  storage = preferences,
}: {
  items: readonly NotificationItem[];
  storage?: KeyValueStorage;
}) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const hadUsageAlert = items.some((item) => item.type === 'usage_alert');
  const [dismissed, dismiss] = useDismissed(hadUsageAlert, storage);
  const settings = useQuery({
    ...notificationSettingsQueries.settings(http),
    enabled: hadUsageAlert && dismissed === false,
  });
  const device = useDevicePush(settings.data);
  const [busy, setBusy] = useState(false);

  if (!hadUsageAlert || dismissed !== false || device.state !== 'off') return null;

  const enable = async () => {
    setBusy(true);
    const outcome = await device.enable();
    setBusy(false);
    if (outcome.ok) {
      toast.show({ type: 'info', message: t('push.device.enabled') });
    } else if (outcome.reason === 'failed') {
      toast.show({
        type: 'error',
        message: `${t('push.device.failed')} ${errorMessage(outcome.error)}`,
      });
    } else {
      // Refused, or no push here after all: not offered again on this device.
      dismiss();
      if (outcome.reason === 'refused')
        toast.show({ type: 'warning', message: t('push.device.refused') });
    }
  };

  return (
    <Card role="region" aria-labelledby="push-prompt-title" className="flex flex-col gap-3">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-fjord-50 text-fjord-700">
          <PhoneIcon className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id="push-prompt-title" className="text-lead font-bold text-ocean-950">
            {t('push.prompt.title')}
          </h2>
          <p className="text-body text-mist-700">{t('push.prompt.body')}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="md" loading={busy} onClick={() => void enable()}>
          {t('push.prompt.enable')}
        </Button>
        <Button variant="ghost" size="md" disabled={busy} onClick={dismiss}>
          {t('push.prompt.dismiss')}
        </Button>
      </div>
    </Card>
  );
}
