import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '@alda/contract/schemas/push';
import type { OkResponse } from '@alda/contract/schemas/common';
import type { Result } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';
import { readDeviceCapability, type DeviceCapability } from './device-capability';
import type { EnableOutcome } from './device-push';
import { notificationSettingsKeys } from './notification-settings-api';

/**
 * Push on this device, as the settings card and the notifications screen show it:
 * - `checking`: not known yet;
 * - `unsupported`: no push here (see {@link DeviceCapability});
 * - `denied`: the customer blocked notifications; the browser's or phone's settings can allow them;
 * - `on`: this session's device has a push address and the permission;
 * - `off`: it can be turned on (the permission is asked for then).
 */
export type DevicePushState = 'checking' | 'unsupported' | 'denied' | 'on' | 'off';

/** The state from what the device can do and whether the server has its address. */
export function devicePushState(
  capability: DeviceCapability,
  registered: boolean,
): Exclude<DevicePushState, 'checking'> {
  if (capability === 'unsupported' || capability === 'denied') return capability;
  return capability === 'granted' && registered ? 'on' : 'off';
}

const capabilityKey = (vapidPublicKey: string | null) =>
  ['device-push', 'capability', vapidPublicKey] as const;

/**
 * This device's push state for `settings` (GET /api/notification-settings), and the calls that
 * turn it on and off. The code that asks for the permission and makes the push address loads by
 * `import()` when one of them is called, not with the screen. Both keep the settings in the cache
 * as the server now has them, so every screen showing them agrees.
 */
export function useDevicePush(settings: NotificationSettings | undefined): {
  state: DevicePushState;
  enable(): Promise<EnableOutcome>;
  disable(): Promise<Result<OkResponse>>;
} {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const vapidPublicKey = settings?.vapidPublicKey ?? null;
  const capability = useQuery({
    queryKey: capabilityKey(vapidPublicKey),
    queryFn: () =>
      readDeviceCapability(vapidPublicKey).catch((): DeviceCapability => 'unsupported'),
    enabled: settings !== undefined,
    // The permission can change outside the app (the browser's settings): read it each time.
    staleTime: 0,
    // Nothing here needs the network.
    networkMode: 'always',
  });
  const state: DevicePushState =
    settings && capability.data
      ? devicePushState(capability.data, settings.thisDeviceRegistered)
      : 'checking';

  // Set rather than read again: a GET on its way could answer after a save that follows (a push
  // switch turned on right after this) and show the switch as it was.
  const registered = (value: boolean) => {
    queryClient.setQueryData<NotificationSettings>(notificationSettingsKeys.all, (current) =>
      current && current.thisDeviceRegistered !== value
        ? {
            ...current,
            thisDeviceRegistered: value,
            devices: Math.max(0, current.devices + (value ? 1 : -1)),
          }
        : current,
    );
  };
  // The permission may have changed: it was asked for.
  const recheck = () =>
    void queryClient.invalidateQueries({ queryKey: capabilityKey(vapidPublicKey) });

  return {
    state,
    async enable() {
      let outcome: EnableOutcome;
      try {
        const { enablePushOnThisDevice } = await import('./device-push');
        outcome = await enablePushOnThisDevice({ http, vapidPublicKey });
      } catch (error) {
        console.warn('Push could not be turned on', error);
        outcome = {
          ok: false,
          reason: 'failed',
          error: { code: 'UNKNOWN', message: '', status: 0 },
        };
      }
      if (outcome.ok) registered(true);
      recheck();
      return outcome;
    },
    async disable() {
      let result: Result<OkResponse>;
      try {
        const { disablePushOnThisDevice } = await import('./device-push');
        result = await disablePushOnThisDevice({ http });
      } catch (error) {
        console.warn('Push could not be turned off', error);
        result = { ok: false, error: { code: 'UNKNOWN', message: '', status: 0 } };
      }
      if (result.ok) registered(false);
      return result;
    },
  };
}
