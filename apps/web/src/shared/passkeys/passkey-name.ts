import { browserOf } from '@alda/contract/format/browser';
import { PASSKEY_NAME_MAX } from '@alda/contract/schemas/passkeys';
import { getSignInDevice } from '@/shared/native/device';

/** The user agent's "model" for a desktop, as people call the computer. */
const DESKTOPS: ReadonlyArray<[RegExp, string]> = [
  [/^Windows/, 'Windows'],
  [/^Macintosh/, 'Mac'],
  [/^X11|^Linux/, 'Linux'],
];

/**
 * The name a new passkey gets in the customer's list: this device as the sign-ins describe it
 * (shared/native/device.ts, ADR 0059) — its own name or model — and, in a browser, which
 * browser: "Pixel 7 (Chrome)", "Mac (Safari)", "iPhone (iOS)". Undefined when the device says
 * nothing; the API then names it after the session's device.
 */
export async function passkeyNameOfThisDevice(
  userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent,
): Promise<string | undefined> {
  const device = await getSignInDevice();
  if (!device) return undefined;
  const model = device.model.trim();
  const what =
    device.name?.trim() || DESKTOPS.find(([pattern]) => pattern.test(model))?.[1] || model || null;
  const where =
    device.platform === 'web'
      ? browserOf(userAgent)
      : device.platform === 'ios'
        ? 'iOS'
        : 'Android';
  const name = what && where ? `${what} (${where})` : (what ?? where);
  return name ? name.slice(0, PASSKEY_NAME_MAX).trim() : undefined;
}
