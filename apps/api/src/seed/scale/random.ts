/*
 * The scale seeder's randomness: a small seeded PRNG (sfc32, seeded through splitmix32), so the
 * same `--seed` (and clock) always yields the same database. Never Math.random: a run must be
 * reproducible to compare measurements.
 */

/** splitmix32: spreads a small seed over 32 bits (sfc32 wants well-mixed starting words). */
function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A 32-bit hash of two integers (murmur3's finaliser): ids and reserves derive from it. */
export function hash32(a: number, b = 0): number {
  let h = Math.imul(a ^ 0x2c1b3c6d, 0x297a2d39) ^ Math.imul(b ^ 0x1b873593, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  h = Math.imul(h, 0x297a2d39);
  h ^= h >>> 15;
  return h >>> 0;
}

export type Weighted<T> = readonly (readonly [T, number])[];

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const mix = splitmix32(seed);
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    // sfc32's first outputs are weak: discard a few.
    for (let i = 0; i < 12; i += 1) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  }

  /** A 32-bit unsigned integer. */
  uint32(): number {
    return Math.floor(this.next() * 4_294_967_296) >>> 0;
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** One value of `entries`, each as likely as its weight. */
  weighted<T>(entries: Weighted<T>): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let x = this.next() * total;
    for (const [value, weight] of entries) {
      x -= weight;
      if (x < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new RangeError('weighted pick from an empty list');
    return last[0];
  }

  /** `n` lower-case hex digits. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += this.uint32().toString(16).padStart(8, '0');
    return out.slice(0, n);
  }

  /** `n` decimal digits (leading zeros kept). */
  digits(n: number): string {
    let out = '';
    while (out.length < n) out += String(this.uint32() % 1_000_000_000).padStart(9, '0');
    return out.slice(0, n);
  }

  /** Shuffles `list` in place (Fisher–Yates). */
  shuffle<T extends { length: number; [i: number]: unknown }>(list: T): T {
    for (let i = list.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      const x = list[i];
      list[i] = list[j];
      list[j] = x;
    }
    return list;
  }
}
