import type { Locale } from '../locale';

const PLATFORM: Record<Locale, Record<'ios' | 'android' | 'web', string>> = {
  fo: { ios: 'iOS', android: 'Android', web: 'kagi' },
  en: { ios: 'iOS', android: 'Android', web: 'browser' },
};

const UNKNOWN: Record<Locale, string> = { fo: 'ókend eind', en: 'unknown device' };

/**
 * A signed-in device in a sentence (the activity log, the new-device e-mail; ADR 0059): its
 * name or model and its platform — "Pixel 8 (Android)", "iPhone (kagi)" — or "unknown device".
 */
export function formatDevice(
  device: { name: string | null; platform: string | null; model: string | null } | undefined,
  locale: Locale,
): string {
  const what = device?.name ?? device?.model ?? null;
  const platform =
    device?.platform === 'ios' || device?.platform === 'android' || device?.platform === 'web'
      ? PLATFORM[locale][device.platform]
      : null;
  if (what && platform) return `${what} (${platform})`;
  return what ?? platform ?? UNKNOWN[locale];
}
