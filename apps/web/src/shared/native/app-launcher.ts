import { isNativePlatform } from './platform';

/**
 * The AppLauncher plugin's module, loaded when first used (native only; never at start-up). The
 * module, not the plugin: a plugin proxy answers every property, `then` too, so a promise must
 * never resolve to one.
 */
const plugin = () => import('@capacitor/app-launcher');

/**
 * Whether another installed app can be opened: on iOS by URL scheme (which must be listed under
 * LSApplicationQueriesSchemes), on Android by package name. Always false on the web.
 */
export async function canOpenApp(target: string): Promise<boolean> {
  if (!isNativePlatform()) return false;
  try {
    const { AppLauncher } = await plugin();
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
    const { AppLauncher } = await plugin();
    const { completed } = await AppLauncher.openUrl({ url: target });
    return completed;
  } catch (error) {
    console.warn('AppLauncher.openUrl failed', error);
    return false;
  }
}
