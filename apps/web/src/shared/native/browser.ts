import { Browser } from '@capacitor/browser';
import { isNativePlatform } from './platform';

/**
 * Opens an external page (store listing, partner site). Native: the in-app browser of the
 * Browser plugin (SFSafariViewController / Custom Tabs), or the store app for store links;
 * web: a new tab without access to this window.
 */
export async function openExternalUrl(url: string): Promise<void> {
  if (isNativePlatform()) {
    await Browser.open({ url });
    return;
  }
  window.open(url, '_blank', 'noopener,noreferrer');
}
