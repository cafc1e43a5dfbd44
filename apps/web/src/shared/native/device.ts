import type { DeviceMeta } from '@alda/contract/schemas/status';
import type { SignInDevice } from '@alda/contract/schemas/sessions';

/**
 * The device meta of SPEC §3 sent with the status check. The Device plugin has a web
 * implementation (user-agent based), so this also answers in a browser.
 */
export async function getDeviceMeta(): Promise<DeviceMeta> {
  // Loaded when first used: the status check runs at resume, never at start-up.
  const { Device } = await import('@capacitor/device');
  const info = await Device.getInfo();
  return {
    name: info.name ?? null,
    platform: info.platform,
    osVersion: info.osVersion,
    model: info.model,
    isVirtual: info.isVirtual,
  };
}

/**
 * What a sign-in tells the server about this device (ADR 0059): the device meta above plus the
 * app's installation id (`Device.getId()`: kept by the app on the web, the vendor or app-scoped
 * id on a phone), so the customer's list of signed-in devices can name it and a sign-in from a
 * device not seen before can be told apart. Never fails a sign-in: undefined when unknown.
 */
export async function getSignInDevice(): Promise<SignInDevice | undefined> {
  try {
    const { Device } = await import('@capacitor/device');
    const [meta, id] = await Promise.all([getDeviceMeta(), Device.getId()]);
    return {
      ...meta,
      name: meta.name?.slice(0, 200) ?? null,
      osVersion: meta.osVersion.slice(0, 50),
      model: meta.model.slice(0, 100),
      id: id.identifier ? id.identifier.slice(0, 200) : undefined,
    };
  } catch {
    return undefined;
  }
}
