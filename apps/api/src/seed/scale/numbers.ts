import { numberClassOf } from '@alda/contract/rules/number-picker';
import { DEMO_PHONE_LINES, DEMO_USERS } from '../demo-users';
import { hash32, type Random } from './random';

/*
 * The seeded customers' numbers (MSISDNs, 6 digits). Faroese numbers are six digits; the mobile
 * range our number picker sells from is 2xxxxx, 5xxxxx, 7xxxxx and 9xxxxx (400,000 numbers,
 * modules/phone-lines/numbering.ts). The seeder never takes:
 * - an easy ("golden") number (contract numberClassOf, ~1,200 of the range): the picker's stock
 *   of numbers with a price;
 * - one in ten ordinary mobile numbers (a fixed hash of the number, whatever the seed), so the
 *   picker and sign-ups always find free numbers, next to seeded ones, in every block;
 * - the demo's own numbers.
 * Blocks of 10,000 (the first two digits) are taken tier by tier, each tier shuffled: first the
 * mobile blocks the demo, its private copies (22–27) and the journeys (21, 28, 29, 51, 55, 77,
 * 31) leave alone; then the fixed-line blocks (3, 4, 6, 8); then those demo and journey blocks;
 * last 0 and 1 (short codes in real life). Up to ~250,000 numbers everything is a Faroese mobile
 * number; a million lines needs nearly the whole 6-digit space, which no real operator has.
 */

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

const TIERS: readonly (readonly number[])[] = [
  [20, 50, 52, 53, 54, 56, 57, 58, 59, ...range(70, 76), 78, 79, ...range(90, 99)],
  [30, ...range(32, 39), ...range(40, 49), ...range(60, 69), ...range(80, 89)],
  [...range(21, 29), 51, 55, 77, 31],
  range(0, 19),
];

const DEMO_NUMBERS: ReadonlySet<number> = new Set(
  [...DEMO_USERS.map((u) => u.phoneNumber), ...DEMO_PHONE_LINES.map((l) => l.msisdn)].map(Number),
);

/** The picker's range: PROVIDER_NUMBER_PREFIXES of modules/phone-lines/numbering.ts. */
const MOBILE_FIRST_DIGITS: ReadonlySet<number> = new Set([2, 5, 7, 9]);

/** One in ten mobile numbers, the same for every seed: left free for the picker. */
function reservedForPicker(n: number): boolean {
  return MOBILE_FIRST_DIGITS.has(Math.floor(n / 100_000)) && hash32(n, 0x5eed) % 10 === 0;
}

export const msisdnOf = (n: number): string => String(n).padStart(6, '0');

function takeable(n: number): boolean {
  return !DEMO_NUMBERS.has(n) && !reservedForPicker(n) && numberClassOf(msisdnOf(n)) === null;
}

/** The takeable numbers of a tier. */
function tierNumbers(blocks: readonly number[]): Int32Array {
  const out = new Int32Array(blocks.length * 10_000);
  let size = 0;
  for (const block of blocks) {
    for (let n = block * 10_000; n < (block + 1) * 10_000; n += 1) {
      if (takeable(n)) out[size++] = n;
    }
  }
  return out.subarray(0, size);
}

let capacity: number | undefined;

/** How many numbers the seeder may take in all (~958,000), counted once per process. */
export function numberCapacity(): number {
  capacity ??= TIERS.reduce((sum, blocks) => sum + tierNumbers(blocks).length, 0);
  return capacity;
}

export class NumbersExhausted extends Error {
  override name = 'NumbersExhausted';
}

/** Hands out numbers in a seeded random order, tier by tier, each at most once. */
export class NumberPlan {
  private tier = -1;
  private numbers: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private cursor = 0;
  private taken = 0;

  constructor(private readonly random: Random) {}

  next(): string {
    while (this.cursor >= this.numbers.length) this.openNextTier();
    this.taken += 1;
    return msisdnOf(this.numbers[this.cursor++] ?? 0);
  }

  /** Numbers handed out so far. */
  count(): number {
    return this.taken;
  }

  /** Tiers are listed only when reached: a small run never pays for the whole plan. */
  private openNextTier(): void {
    this.tier += 1;
    const blocks = TIERS[this.tier];
    if (!blocks)
      throw new NumbersExhausted(
        `every 6-digit number the seeder may use is taken (${numberCapacity().toLocaleString('en')}); seed fewer lines`,
      );
    this.numbers = this.random.shuffle(tierNumbers(blocks));
    this.cursor = 0;
  }
}
