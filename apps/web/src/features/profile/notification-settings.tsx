import { useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type ChannelSetting,
  type NotificationChannel,
  type NotificationKind,
  type NotificationSettings,
  type NotificationSettingsUpdate,
  type QuietHours,
} from '@alda/contract/schemas/push';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { isNativePlatform } from '@/shared/native/platform';
import type { EnableOutcome } from '@/shared/push/device-push';
import {
  notificationSettingsKeys,
  notificationSettingsQueries,
  saveNotificationSettings,
} from '@/shared/push/notification-settings-api';
import { useDevicePush, type DevicePushState } from '@/shared/push/use-device-push';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { cx } from '@/shared/ui/cx';
import { ErrorState } from '@/shared/ui/error-state';
import { PhoneIcon } from '@/shared/ui/icons';
import { Skeleton } from '@/shared/ui/skeleton';
import { Switch } from '@/shared/ui/switch';
import { TextField } from '@/shared/ui/text-field';
import { useToast } from '@/shared/ui/toast/toast-context';

/** What is being saved: a cell (`kind/channel`), the quiet hours or this device's push. */
type Saving = `${NotificationKind}/${NotificationChannel}` | 'quiet' | 'device' | null;

type KindSettings = NotificationSettings['kinds'][number];

/**
 * The profile's notification settings (issue 64, ADR 0096): which kinds of notice reach the
 * customer on which channel, push on this device, and quiet hours.
 *
 * A phone is 390 px wide, too narrow for a table of eight kinds by three channels with their
 * explanations, so each kind is a group with its hint and a switch per channel it has: a channel
 * always used for the kind (a security push, a receipt's e-mail) shows as a switch that is on and
 * cannot be moved. Every change is saved at once (PATCH /api/notification-settings) and the
 * switches show what was saved: a failed save leaves them as they were and says why.
 *
 * Turning a kind's push on while this device has none asks for the permission there and then (not
 * when the app first opens) and registers the device; a refusal says so and leaves it off.
 */
export function NotificationSettingsCard() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const query = useQuery(notificationSettingsQueries.settings(http));
  const device = useDevicePush(query.data);
  const [saving, setSaving] = useState<Saving>(null);

  const failed = (lead: string, error: { code: string; message: string }) =>
    toast.show({ type: 'error', message: `${lead} ${errorMessage(error)}` });

  const tellEnableFailure = (outcome: Exclude<EnableOutcome, { ok: true }>) => {
    if (outcome.reason === 'refused')
      toast.show({ type: 'warning', message: t('push.device.refused') });
    else if (outcome.reason === 'unsupported')
      toast.show({ type: 'error', message: t('push.device.unsupported') });
    else failed(t('push.device.failed'), outcome.error);
  };

  const save = async (what: Exclude<Saving, null>, update: NotificationSettingsUpdate) => {
    setSaving(what);
    const saved = await saveNotificationSettings(http, update);
    setSaving(null);
    if (!saved.ok) return failed(t('push.failed'), saved.error);
    queryClient.setQueryData(notificationSettingsKeys.all, saved.data);
    toast.show({ type: 'info', message: t('push.saved') });
  };

  const changeChannel = async (
    kind: NotificationKind,
    channel: NotificationChannel,
    on: boolean,
  ) => {
    if (saving) return;
    // Push for a kind, and this device could have it but has not: the moment to ask.
    if (channel === 'push' && on && device.state === 'off') {
      setSaving(`${kind}/${channel}`);
      const outcome = await device.enable();
      setSaving(null);
      if (!outcome.ok) return tellEnableFailure(outcome);
    }
    await save(`${kind}/${channel}`, { channels: [{ kind, channel, on }] });
  };

  const toggleDevice = async () => {
    if (saving) return;
    setSaving('device');
    if (device.state === 'on') {
      const result = await device.disable();
      setSaving(null);
      if (!result.ok) return failed(t('push.device.offFailed'), result.error);
      toast.show({ type: 'info', message: t('push.device.disabled') });
    } else {
      const outcome = await device.enable();
      setSaving(null);
      if (!outcome.ok) return tellEnableFailure(outcome);
      toast.show({ type: 'info', message: t('push.device.enabled') });
    }
  };

  return (
    // A group, not a region: the toasts' region is "Fráboðanir" already.
    <Card
      role="group"
      aria-labelledby="notification-settings-title"
      className="flex flex-col gap-4"
    >
      <div className="flex flex-col gap-1">
        <h2 id="notification-settings-title" className="text-heading font-bold text-ocean-950">
          {t('push.title')}
        </h2>
        <p className="text-caption text-mist-700">{t('push.lead')}</p>
      </div>
      {query.isPending ? (
        <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-3">
          <Skeleton className="h-20 rounded-2xl" />
          <Skeleton className="h-40 rounded-2xl" />
        </div>
      ) : query.isError ? (
        <ErrorState
          message={t('push.loadFailed')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <>
          <DevicePushRow
            state={device.state}
            devices={query.data.devices}
            busy={saving === 'device'}
            disabled={saving !== null}
            onToggle={() => void toggleDevice()}
          />
          <div className="flex flex-col divide-y divide-mist-100">
            {inOrder(query.data.kinds).map((entry, index) => (
              <KindChannels
                key={entry.kind}
                first={index === 0}
                entry={entry}
                saving={saving}
                onChange={(channel, on) => void changeChannel(entry.kind, channel, on)}
              />
            ))}
          </div>
          <QuietHoursSettings
            quiet={query.data.quietHours}
            saving={saving === 'quiet'}
            disabled={saving !== null}
            onSave={(quietHours) => void save('quiet', { quietHours })}
          />
        </>
      )}
    </Card>
  );
}

/** The kinds in the contract's order (NOTIFICATION_KINDS); a kind the app does not know is left out. */
function inOrder(kinds: KindSettings[]): KindSettings[] {
  return NOTIFICATION_KINDS.flatMap((kind) => kinds.filter((entry) => entry.kind === kind));
}

/** "Push on this device": its state, and the button that turns it on or off. */
function DevicePushRow({
  state,
  devices,
  busy,
  disabled,
  onToggle,
}: {
  state: DevicePushState;
  devices: number;
  busy: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const text = {
    checking: t('push.device.checking'),
    on: t('push.device.on'),
    off: t('push.device.off'),
    unsupported: t('push.device.unsupported'),
    denied: isNativePlatform() ? t('push.device.deniedNative') : t('push.device.deniedWeb'),
  }[state];
  return (
    <div
      role="group"
      aria-labelledby="device-push-title"
      className="flex items-start gap-3 rounded-2xl bg-mist-50 p-4"
    >
      <PhoneIcon className="mt-0.5 size-5 shrink-0 text-ocean-700" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h3 id="device-push-title" className="text-body font-semibold text-ocean-950">
          {t('push.device.title')}
        </h3>
        <p className="text-caption text-mist-700" aria-live="polite">
          {text}
        </p>
        {devices > 0 && (
          <p className="text-caption text-mist-700">
            {t('push.device.devices', { count: devices })}
          </p>
        )}
      </div>
      {(state === 'on' || state === 'off') && (
        <Button
          variant="secondary"
          size="md"
          className="shrink-0"
          loading={busy}
          disabled={disabled}
          onClick={onToggle}
        >
          {state === 'on' ? t('push.device.turnOff') : t('push.device.turnOn')}
        </Button>
      )}
    </div>
  );
}

/** One kind: its name and hint, and a switch per channel it has. */
function KindChannels({
  first,
  entry,
  saving,
  onChange,
}: {
  first: boolean;
  entry: KindSettings;
  saving: Saving;
  onChange: (channel: NotificationChannel, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const channels = NOTIFICATION_CHANNELS.flatMap((channel) => {
    const cell: ChannelSetting | undefined = entry[channel];
    return cell ? [{ channel, cell }] : [];
  });
  return (
    <div
      role="group"
      aria-labelledby={id}
      className={cx('flex flex-col gap-3 py-4', first && 'pt-1')}
    >
      <div className="flex flex-col gap-0.5">
        <h3 id={id} className="text-body font-bold text-ocean-950">
          {t(`push.kinds.${entry.kind}.label`)}
        </h3>
        <p className="text-caption text-mist-700">{t(`push.kinds.${entry.kind}.hint`)}</p>
      </div>
      {channels.map(({ channel, cell }) =>
        cell.mode === 'always' ? (
          <Switch
            key={channel}
            label={t(`push.channels.${channel}`)}
            description={t('push.always')}
            checked
            readOnly
            disabled
          />
        ) : (
          <Switch
            key={channel}
            label={t(`push.channels.${channel}`)}
            checked={cell.on}
            disabled={saving !== null}
            aria-busy={saving === `${entry.kind}/${channel}` || undefined}
            onChange={(event) => onChange(channel, event.currentTarget.checked)}
          />
        ),
      )}
    </div>
  );
}

/** Minutes after midnight as the `HH:MM` of a time input. */
const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A time input's `HH:MM` (seconds ignored) as minutes after midnight; null when not a time. */
function minutesOf(value: string): number | null {
  const match = /^(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null;
}

/**
 * Quiet hours: on or off (saved at once), and from when to when on the Faroese clock (saved with
 * its button, as a time is typed in parts).
 */
function QuietHoursSettings({
  quiet,
  saving,
  disabled,
  onSave,
}: {
  quiet: QuietHours;
  saving: boolean;
  disabled: boolean;
  onSave: (quiet: QuietHours) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4 border-t border-mist-100 pt-4">
      <Switch
        label={t('push.quiet.title')}
        description={t('push.quiet.hint')}
        checked={quiet.on}
        disabled={disabled}
        aria-busy={saving || undefined}
        onChange={(event) => onSave({ ...quiet, on: event.currentTarget.checked })}
      />
      {quiet.on && (
        <QuietHoursTimes
          // Saved times start the fields afresh.
          key={`${quiet.from}-${quiet.to}`}
          quiet={quiet}
          saving={saving}
          disabled={disabled}
          onSave={onSave}
        />
      )}
    </div>
  );
}

/**
 * The from and to of quiet hours, as typed until saved. They may not be the same (the contract's
 * rule); from after to spans midnight.
 */
function QuietHoursTimes({
  quiet,
  saving,
  disabled,
  onSave,
}: {
  quiet: QuietHours;
  saving: boolean;
  disabled: boolean;
  onSave: (quiet: QuietHours) => void;
}) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(timeOf(quiet.from));
  const [to, setTo] = useState(timeOf(quiet.to));
  const fromMinutes = minutesOf(from);
  const toMinutes = minutesOf(to);
  const same = fromMinutes !== null && fromMinutes === toMinutes;
  const changed = fromMinutes !== quiet.from || toMinutes !== quiet.to;
  const valid = fromMinutes !== null && toMinutes !== null && !same;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || disabled) return;
    onSave({ ...quiet, from: fromMinutes, to: toMinutes });
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-3">
        <TextField
          type="time"
          label={t('push.quiet.from')}
          value={from}
          invalid={same || fromMinutes === null}
          describedBy="quiet-hours-zone"
          onChange={(event) => setFrom(event.currentTarget.value)}
        />
        <TextField
          type="time"
          label={t('push.quiet.to')}
          value={to}
          invalid={same || toMinutes === null}
          describedBy={same ? 'quiet-hours-zone quiet-hours-same' : 'quiet-hours-zone'}
          onChange={(event) => setTo(event.currentTarget.value)}
        />
      </div>
      <p id="quiet-hours-zone" className="text-caption text-mist-700">
        {t('push.quiet.zone')}
      </p>
      {same && (
        <p id="quiet-hours-same" className="text-caption font-medium text-danger-600">
          {t('push.quiet.same')}
        </p>
      )}
      {changed && (
        <Button
          type="submit"
          variant="secondary"
          size="md"
          className="self-start"
          loading={saving}
          disabled={!valid || disabled}
        >
          {t('push.quiet.save')}
        </Button>
      )}
    </form>
  );
}
