/**
 * The provider's numbering: which 6-digit numbers are ours to give out. Faroese mobile numbers
 * start with 2, 5, 7 or 9 (fixed lines use 3, 4, 6 and 8); we treat the whole mobile range as
 * ours — the real allocation from the regulator would narrow this list
 * (docs/decisions/0024-number-reservations.md).
 */
export const PROVIDER_NUMBER_PREFIXES = ['2', '5', '7', '9'] as const;

/** True when the 6-digit number lies in the provider's range. */
export function isProviderNumber(msisdn: string): boolean {
  return /^\d{6}$/.test(msisdn) && PROVIDER_NUMBER_PREFIXES.some((p) => msisdn.startsWith(p));
}

/**
 * Numbers "like" the one asked for, closest first: the same first four digits, last two moving
 * outwards (211234 → 211235, 211233, 211236, …). The caller filters out the taken ones.
 */
export function nearbyNumbers(msisdn: string, count = 40): string[] {
  const block = msisdn.slice(0, 4);
  const last = Number(msisdn.slice(4));
  const result: string[] = [];
  for (let step = 1; step < 100 && result.length < count; step += 1) {
    for (const candidate of [last + step, last - step]) {
      if (candidate >= 0 && candidate <= 99 && result.length < count) {
        result.push(`${block}${String(candidate).padStart(2, '0')}`);
      }
    }
  }
  return result;
}
