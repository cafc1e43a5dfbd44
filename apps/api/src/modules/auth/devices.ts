import { createHash } from 'node:crypto';
import type { SignInDevice } from '@alda/contract/schemas/sessions';
import type { SessionDeviceValues } from './repo';

/*
 * The device of a sign-in (docs/decisions/0059-sessions-you-can-see.md). "The same device" means
 * the same installation of the app: the app sends its installation id (`device.id`), and the
 * server keeps only its SHA-256 as `device_key`. A client that sends no id (an API client, an
 * older app) is known by platform, model and user agent together — coarser (two identical
 * phones look alike; a browser update looks new), but never a reason to refuse a sign-in.
 */

/** The device columns of a new session from what the sign-in sent. */
export function sessionDevice(
  device: SignInDevice | undefined,
  userAgent: string | null,
): SessionDeviceValues {
  const key = device?.id
    ? `id:${device.id}`
    : `meta:${device?.platform ?? ''}|${device?.model ?? ''}|${userAgent ?? ''}`;
  return {
    key: createHash('sha256').update(key).digest('hex'),
    name: device?.name?.trim() || null,
    platform: device?.platform ?? null,
    model: device?.model?.trim() || null,
    osVersion: device?.osVersion?.trim() || null,
  };
}
