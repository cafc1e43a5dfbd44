import { AppLauncher } from '@capacitor/app-launcher';
import { isNativePlatform } from './platform';

/**
 * Whether another installed app can be opened: on iOS by URL scheme (which must be listed under
 * LSApplicationQueriesSchemes), on Android by package name. Always false on the web.
 */
export async function canOpenApp(target: string): Promise<boolean> {
  if (!isNativePlatform()) return false;
  try {
    const { value } = await AppLauncher.canOpenUrl({ url: target });
    return value;
  } catch (error) {
    console.warn('AppLauncher.canOpenUrl failed', error);
    return false;
  }
}

/** Opens another installed app; resolves false when it could not be opened. */
export async function openApp(target: string): Promise<boolean> {
  if (!isNativePlatform()) return false;
  try {
    const { completed } = await AppLauncher.openUrl({ url: target });
    return completed;
  } catch (error) {
    console.warn('AppLauncher.openUrl failed', error);
    return false;
  }
}
