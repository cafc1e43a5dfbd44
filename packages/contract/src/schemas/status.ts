import { z } from 'zod/mini';

/** SPEC §3 "Device meta". */
export const deviceMeta = z.object({
  name: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  platform: z.enum(['ios', 'android', 'web']),
  osVersion: z.string().check(z.maxLength(50)),
  model: z.string().check(z.maxLength(100)),
  isVirtual: z.boolean(),
});
export type DeviceMeta = z.infer<typeof deviceMeta>;

/** SPEC §7 Status: POST /api/status. */
export const statusRequest = z.object({
  currentVersion: z.string().check(z.regex(/^\d+\.\d+\.\d+$/, 'semver')),
  deviceMeta,
});
export type StatusRequest = z.infer<typeof statusRequest>;

export const statusMessage = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  isRead: z.boolean(),
  activeFrom: z.nullable(z.iso.datetime({ offset: true })),
  activeTo: z.nullable(z.iso.datetime({ offset: true })),
});
export type StatusMessage = z.infer<typeof statusMessage>;

export const statusResponse = z.object({
  mustUpgrade: z.boolean(),
  shouldUpgrade: z.boolean(),
  messages: z.array(statusMessage),
});
export type StatusResponse = z.infer<typeof statusResponse>;
