import { matchesNumber, numberClassOf, type NumberMatch } from '@alda/contract/rules/number-picker';

/**
 * The provider's numbering: which 6-digit numbers are ours to give out. Faroese mobile numbers
 * start with 2, 5, 7 or 9 (fixed lines use 3, 4, 6 and 8); we treat the whole mobile range as
 * ours — the real allocation from the regulator would narrow this list
 * (docs/decisions/0024-number-reservations.md).
 */
export const PROVIDER_NUMBER_PREFIXES = ['2', '5', '7', '9'] as const;

/** Numbers of the plan per prefix: `p00000`–`p99999`. */
export const PER_PREFIX = 100_000;

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

/**
 * The numbers of the plan containing `q`, in order, after `after` (a generator: the plan is
 * large). The staff inventory pages through it; the picker's list of easy numbers is cut from it.
 */
export function* planNumbers(q?: string, after?: string): Generator<string> {
  for (const prefix of PROVIDER_NUMBER_PREFIXES) {
    for (let i = 0; i < PER_PREFIX; i += 1) {
      const msisdn = `${prefix}${String(i).padStart(5, '0')}`;
      if (after !== undefined && msisdn <= after) continue;
      if (q && !msisdn.includes(q)) continue;
      yield msisdn;
    }
  }
}

let easy: readonly string[] | undefined;
/**
 * Every number of the plan that has a class of easy numbers (contract `numberClassOf`, ADR
 * 0077): about 1,200 of 400,000, worked out once per process.
 */
export function easyPlanNumbers(): readonly string[] {
  easy ??= [...planNumbers()].filter((n) => numberClassOf(n) !== null);
  return easy;
}

/** Where a pattern can sit in a number: the fixed digits from `at`, the rest free. */
interface Slot {
  at: number;
  /** How many numbers of the plan the slot holds. */
  size: number;
}

/**
 * A slot's size: free digits 0–9, a free first digit one of the prefixes; null when the fixed
 * digits start the number outside the plan.
 */
function slotOf(digits: string, at: number): Slot | null {
  const free = 6 - digits.length;
  const firstIsFree = at > 0 || digits === '';
  if (!firstIsFree && !PROVIDER_NUMBER_PREFIXES.some((p) => digits.startsWith(p))) return null;
  const size = firstIsFree ? PROVIDER_NUMBER_PREFIXES.length * 10 ** (free - 1) : 10 ** free;
  return { at, size };
}

/** Fills a slot's free digits with `random`: a number of the plan that matches. */
function fill(digits: string, slot: Slot, random: () => number): string {
  const pick = (n: number) => Math.floor(random() * n);
  let out = '';
  for (let i = 0; i < 6; i += 1) {
    if (i >= slot.at && i < slot.at + digits.length) out += digits[i - slot.at];
    else if (i === 0) out += PROVIDER_NUMBER_PREFIXES[pick(PROVIDER_NUMBER_PREFIXES.length)] ?? '';
    else out += String(pick(10));
  }
  return out;
}

/** `list` in random order (Fisher–Yates, in place). */
export function shuffled<T>(list: T[], random: () => number = Math.random): T[] {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/** Up to this many numbers match: list them all (shuffled) rather than draw at random. */
const LIST_ALL_UP_TO = 5_000;
/** Draws from a large set before giving up on finding more (the free check stops far sooner). */
const MAX_DRAWS = 5_000;

/**
 * Numbers of the plan that match `pattern` (none: any), in random order without repeats, for
 * the picker to check against the taken ones (issue 33 §1): a small set listed and shuffled, a
 * large one drawn at random (at most {@link MAX_DRAWS}).
 */
export function* matchingPlanNumbers(
  pattern: NumberMatch | null,
  random: () => number = Math.random,
): Generator<string> {
  const digits = pattern?.digits ?? '';
  const positions =
    pattern === null
      ? [0]
      : pattern.match === 'startsWith'
        ? [0]
        : pattern.match === 'endsWith'
          ? [6 - digits.length]
          : Array.from({ length: 7 - digits.length }, (_, i) => i);
  const slots = positions.flatMap((at) => slotOf(digits, at) ?? []);
  const total = slots.reduce((sum, s) => sum + s.size, 0);
  if (total === 0) return;
  if (total <= LIST_ALL_UP_TO) {
    const all = new Set<string>();
    const free = 6 - digits.length;
    for (const slot of slots) {
      for (let i = 0; i < 10 ** free; i += 1) {
        // The i-th way to fill the free digits; a free first digit outside the plan is skipped.
        const rest = free === 0 ? '' : String(i).padStart(free, '0');
        const filled = rest.slice(0, slot.at) + digits + rest.slice(slot.at);
        if (isProviderNumber(filled) && matchesNumber(filled, pattern)) all.add(filled);
      }
    }
    yield* shuffled([...all], random);
    return;
  }
  const seen = new Set<string>();
  for (let draw = 0; draw < MAX_DRAWS; draw += 1) {
    let x = random() * total;
    const slot = slots.find((s) => (x -= s.size) < 0) ?? slots[slots.length - 1]!;
    const n = fill(digits, slot, random);
    if (seen.has(n)) continue;
    seen.add(n);
    yield n;
  }
}
