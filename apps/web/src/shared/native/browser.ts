import { isNativePlatform } from './platform';

/**
 * The Browser plugin's module, loaded when first used (native only; never at start-up). The
 * module, not the plugin: a plugin proxy answers every property, `then` too, so a promise must
 * never resolve to one.
 */
const plugin = () => import('@capacitor/browser');

/**
 * Opens an external page (store listing, partner site). Native: the in-app browser of the
 * Browser plugin (SFSafariViewController / Custom Tabs), or the store app for store links;
 * web: a new tab without access to this window.
 */
export async function openExternalUrl(url: string): Promise<void> {
  if (isNativePlatform()) {
    const { Browser } = await plugin();
    await Browser.open({ url });
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Closes the in-app browser opened by {@link openExternalUrl} (the provider's card page once the
 * payment has settled). iOS closes it; where the plugin cannot (Android Custom Tabs, the web)
 * this does nothing and the customer closes it.
 */
export async function closeInAppBrowser(): Promise<void> {
  if (!isNativePlatform()) return;
  try {
    const { Browser } = await plugin();
    await Browser.close();
  } catch {
    // Nothing open, or not supported on this platform.
  }
}
