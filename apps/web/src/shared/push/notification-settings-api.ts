import { queryOptions } from '@tanstack/react-query';
import { okResponse, type OkResponse } from '@alda/contract/schemas/common';
import {
  notificationSettings,
  pushDeviceResponse,
  type NotificationSettings,
  type NotificationSettingsUpdate,
  type PushDeviceRegistration,
  type PushDeviceResponse,
} from '@alda/contract/schemas/push';
import { unwrap, type HttpClient, type Result } from '@/shared/api/http';

/*
 * The customer's notification settings and this device's push address (issue 64, ADR 0096). Read
 * by the profile's settings card and by the notifications screen's offer to turn push on, so it
 * lives in shared/ (a feature never imports another).
 */

/** The query key of the settings, shared by the profile's card and the notifications screen. */
export const notificationSettingsKeys = {
  all: ['notification-settings'] as const,
};

/** The settings' query, for `useQuery`. */
export const notificationSettingsQueries = {
  /**
   * GET /notification-settings: per kind the channels it has, the quiet hours, the VAPID key and
   * whether this session's device receives pushes. Read afresh each time a screen shows it: the
   * customer may have changed it on another device.
   */
  settings: (http: HttpClient) =>
    queryOptions({
      queryKey: notificationSettingsKeys.all,
      queryFn: async ({ signal }) =>
        unwrap(await http.get('/notification-settings', notificationSettings, { signal })),
      staleTime: 0,
    }),
};

/**
 * PATCH /notification-settings: only what is sent changes; the answer is the whole settings as
 * saved. 422 CHANNEL_ALWAYS_ON for switching off a channel that is always used.
 */
export function saveNotificationSettings(
  http: HttpClient,
  update: NotificationSettingsUpdate,
): Promise<Result<NotificationSettings>> {
  return http.patch('/notification-settings', update, notificationSettings);
}

/**
 * PUT /push/device: binds this session's push address (a browser's subscription, an APNs / FCM
 * token), replacing the session's earlier one. 409 PUSH_NOT_AVAILABLE when the API does not send
 * to that platform.
 */
export function registerPushDevice(
  http: HttpClient,
  registration: PushDeviceRegistration,
): Promise<Result<PushDeviceResponse>> {
  return http.put('/push/device', registration, pushDeviceResponse);
}

/** DELETE /push/device: this device stops receiving pushes. */
export function removePushDevice(http: HttpClient): Promise<Result<OkResponse>> {
  return http.delete('/push/device', okResponse);
}
