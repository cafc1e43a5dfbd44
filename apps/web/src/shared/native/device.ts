import type { DeviceMeta } from '@alda/contract/schemas/status';

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
