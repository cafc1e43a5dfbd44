import { hash32 } from './random';

/*
 * Ids of the seeded rows: valid version-4 UUIDs whose first 48 bits count up per table. The
 * generator writes rows in id order, so every primary key and every index led by a foreign id
 * (orders by user, usage_daily by line, …) is appended to at its right edge instead of being
 * written all over: that keeps a load of a million lines at COPY speed once the indexes no longer
 * fit in memory. The rest of the id is a hash of seed, table and count, so ids look random and
 * the tables' ids never meet.
 */

/** The tables (and other things) that get ids; the tag is part of the id. */
export const ID_TAGS = {
  user: 0x1,
  account: 0x2,
  line: 0x3,
  order: 0x4,
  payment: 0x5,
  receipt: 0x6,
  agreement: 0x7,
  action: 0x8,
  notification: 0x9,
  session: 0xa,
  refreshToken: 0xb,
  conversation: 0xc,
  message: 0xd,
  step: 0xe,
  transfer: 0xf,
  clientId: 0x10,
} as const;
export type IdTag = keyof typeof ID_TAGS;

const VARIANTS = '89ab';
/** Two hex digits per byte value: ids are made ~a hundred million times in a large run. */
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex8 = (n: number) =>
  (BYTE_HEX[(n >>> 24) & 255] ?? '') +
  (BYTE_HEX[(n >>> 16) & 255] ?? '') +
  (BYTE_HEX[(n >>> 8) & 255] ?? '') +
  (BYTE_HEX[n & 255] ?? '');
const hex4 = (n: number) => (BYTE_HEX[(n >>> 8) & 255] ?? '') + (BYTE_HEX[n & 255] ?? '');
const hex3 = (n: number) => hex4(n).slice(1);

export class Ids {
  private readonly counters = new Map<IdTag, number>();

  constructor(private readonly seed: number) {}

  /** The next id of `tag`: larger than every id of `tag` handed out before. */
  next(tag: IdTag): string {
    const index = this.counters.get(tag) ?? 0;
    this.counters.set(tag, index + 1);
    return this.of(tag, index);
  }

  /** How many ids of `tag` were handed out. */
  count(tag: IdTag): number {
    return this.counters.get(tag) ?? 0;
  }

  private of(tag: IdTag, index: number): string {
    const t = ID_TAGS[tag];
    const high = Math.floor(index / 0x10000);
    const low = index % 0x10000;
    const h1 = hash32(this.seed ^ (t << 24), index);
    const h2 = hash32(index ^ 0x5bd1e995, this.seed + t);
    return (
      `${hex8(high)}-${hex4(low)}-4${hex3(t)}-` +
      `${VARIANTS[h1 & 3]}${hex3((h1 >>> 2) & 0xfff)}-${hex8(h2)}${hex4(h1 >>> 16)}`
    );
  }
}
