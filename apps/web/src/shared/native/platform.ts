import { Capacitor } from '@capacitor/core';

export type Platform = 'ios' | 'android' | 'web';

let override: Platform | null = null;

/** The platform the app runs on: the Capacitor shell ('ios' | 'android') or a browser ('web'). */
export function getPlatform(): Platform {
  if (override) return override;
  const platform = Capacitor.getPlatform();
  return platform === 'ios' || platform === 'android' ? platform : 'web';
}

/**
 * True inside the native shell. Every native-only behaviour (status check at resume, back button,
 * app launcher, splash screen) asks this, so tests can run the native path in jsdom.
 */
export function isNativePlatform(): boolean {
  return getPlatform() !== 'web';
}

/** Pretend to run on `platform` (tests); `null` returns to the real platform. */
export function overridePlatform(platform: Platform | null): void {
  override = platform;
}
