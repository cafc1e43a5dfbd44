import { SplashScreen } from '@capacitor/splash-screen';
import { isNativePlatform } from './platform';

/** Hides the native splash screen (kept up by `launchAutoHide: false` until the app is mounted). */
export async function hideSplashScreen(): Promise<void> {
  if (!isNativePlatform()) return;
  await SplashScreen.hide({ fadeOutDuration: 200 });
}
