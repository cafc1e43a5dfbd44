import { z } from 'zod';

/** SPEC §3 "Device meta". */
export const deviceMeta = z.object({
  name: z.string().max(200).nullable().optional(),
  platform: z.enum(['ios', 'android', 'web']),
  osVersion: z.string().max(50),
  model: z.string().max(100),
  isVirtual: z.boolean(),
});
export type DeviceMeta = z.infer<typeof deviceMeta>;

/** SPEC §7 Status: POST /api/status. */
export const statusRequest = z.object({
  currentVersion: z.string().regex(/^\d+\.\d+\.\d+$/, 'semver'),
  deviceMeta,
});
export type StatusRequest = z.infer<typeof statusRequest>;

export const statusMessage = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  isRead: z.boolean(),
  activeFrom: z.iso.datetime({ offset: true }).nullable(),
  activeTo: z.iso.datetime({ offset: true }).nullable(),
});
export type StatusMessage = z.infer<typeof statusMessage>;

export const statusResponse = z.object({
  mustUpgrade: z.boolean(),
  shouldUpgrade: z.boolean(),
  messages: z.array(statusMessage),
});
export type StatusResponse = z.infer<typeof statusResponse>;
