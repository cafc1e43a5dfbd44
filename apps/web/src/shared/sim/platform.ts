import { getPlatform } from '@/shared/native/platform';

/**
 * True on an iPhone or iPad: the native shell on iOS, or Safari on one (iPadOS reports itself as
 * a Mac with touch). Apple's one-tap eSIM link works only there (iOS 17.5+).
 */
export function isIosDevice(): boolean {
  const platform = getPlatform();
  if (platform !== 'web') return platform === 'ios';
  if (typeof navigator === 'undefined') return false;
  return (
    /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1)
  );
}
