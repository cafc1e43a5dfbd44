import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataEnvelope } from '@alda/contract/envelope';
import { okResponse } from '@alda/contract/schemas/common';
import {
  notificationSettings,
  notificationSettingsUpdate,
  pushDeviceRegistration,
  pushDeviceResponse,
} from '@alda/contract/schemas/push';
import { errorResponses } from '../../http';
import { requireUser } from '../../plugins/auth';
import type { PushSettingsService } from './settings-service';

/** Notification settings and this device's push address (ADR 0096). */
export const pushRoutes: FastifyPluginAsyncZod<{ service: PushSettingsService }> = async (
  app,
  { service },
) => {
  app.get(
    '/api/notification-settings',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'What reaches the customer on which channel, quiet hours, and push on this device',
        description:
          'One entry per kind of notification with the channels it has: `switch` the customer chooses, `always` it is always sent that way (security pushes cannot be switched off). `vapidPublicKey` is what a browser subscribes with (null when web push is off); `thisDeviceRegistered` whether the calling session has a push address.',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(notificationSettings), ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { data: await service.read(user.id, user.sessionId) };
    },
  );

  app.patch(
    '/api/notification-settings',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'Switches channels per kind and sets quiet hours; only what is sent changes',
        description:
          'Quiet hours are minutes after midnight, Faroe time; non-urgent pushes made in them wait until they end. A channel the kind does not have is 400; switching off one that is always used is 422 CHANNEL_ALWAYS_ON. All or nothing.',
        security: [{ bearerAuth: [] }],
        body: notificationSettingsUpdate,
        response: { 200: dataEnvelope(notificationSettings), ...errorResponses(400, 401, 422) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { data: await service.update(user.id, user.sessionId, request.body) };
    },
  );

  app.put(
    '/api/push/device',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary:
          "Binds this session's push address: a browser's push subscription or an APNs / FCM token",
        description:
          "A new address replaces the session's earlier one (a changed token). Signing out of the session removes it; so does a 404 or 410 from the push service. 409 PUSH_NOT_AVAILABLE when this installation does not send to that platform.",
        security: [{ bearerAuth: [] }],
        body: pushDeviceRegistration,
        response: { 200: dataEnvelope(pushDeviceResponse), ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { data: await service.registerDevice(user.id, user.sessionId, request.body) };
    },
  );

  app.delete(
    '/api/push/device',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['notifications'],
        summary: 'This device stops receiving pushes',
        security: [{ bearerAuth: [] }],
        response: { 200: dataEnvelope(okResponse), ...errorResponses(401) },
      },
    },
    async (request) => {
      await service.removeDevice(requireUser(request).sessionId);
      return { data: { ok: true as const } };
    },
  );
};
