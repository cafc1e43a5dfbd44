import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNLIMITED_DATA_MB } from '@alda/contract/constants';
import { applyUsage, sumUsage, type DataBuckets } from './balance';
import { rateRoaming, ratingOrder, type RatedUsage, type RoamingMonth } from './roaming';

const PRICE = 10;

const buckets = (patch: Partial<DataBuckets> = {}): DataBuckets => ({
  domesticTotalMb: 1_000,
  domesticRemainingMb: 1_000,
  domesticUsedMb: 0,
  euAllowanceMb: 500,
  euUsedMb: 0,
  ...patch,
});

const month = (patch: Partial<RoamingMonth> = {}): RoamingMonth => ({
  buckets: buckets(),
  capOere: 37_300,
  chargedOere: 0,
  chargedMb: 0,
  writtenOffMb: 0,
  stopped: false,
  ...patch,
});

let seq = 0;
const rec = (usedMb: number, kind: 'eu' | 'domestic' = 'eu', minute = seq): RatedUsage => ({
  recordId: `r-${String(seq++).padStart(4, '0')}`,
  usedMb,
  kind,
  occurredAt: new Date(Date.UTC(2026, 10, 5, 12, minute)).toISOString(),
});

/** Carries a month through a batch as the usage service does: rate, then move the buckets. */
function book(m: RoamingMonth, records: readonly RatedUsage[]) {
  const rated = rateRoaming(m, records, PRICE);
  return {
    charges: rated.charges,
    month: { ...rated.month, buckets: applyUsage(m.buckets, sumUsage(records)) },
  };
}

const arbitraryMonth = fc
  .record({
    total: fc.oneof(fc.nat(5_000), fc.constant(UNLIMITED_DATA_MB)),
    remainingShare: fc.double({ min: 0, max: 1, noNaN: true }),
    eu: fc.option(fc.nat(3_000)),
    cap: fc.option(fc.integer({ min: 1, max: 500 }).map((kr) => kr * 100)),
  })
  .map(({ total, remainingShare, eu, cap }) =>
    month({
      buckets: buckets({
        domesticTotalMb: total,
        domesticRemainingMb: Math.floor(total * remainingShare),
        euAllowanceMb: eu,
      }),
      capOere: cap,
    }),
  );

/** Records with distinct ids, in rating order. */
const arbitraryRecords = fc
  .array(
    fc.record({
      usedMb: fc.nat(2_000),
      kind: fc.constantFrom('domestic' as const, 'eu' as const),
      minute: fc.nat(10_000),
    }),
    { maxLength: 30 },
  )
  .map((rows) =>
    ratingOrder(
      rows.map((r, i) => ({
        recordId: `p-${String(i).padStart(3, '0')}`,
        usedMb: r.usedMb,
        kind: r.kind,
        occurredAt: new Date(Date.UTC(2026, 10, 1) + r.minute * 60_000).toISOString(),
      })),
    ),
  );

describe('rating roaming data against the spend cap (issue 33 §2)', () => {
  it('charges only EU use beyond the EU package and the domestic data left', () => {
    const { charges, month: after } = rateRoaming(month(), [rec(400), rec(1_200)], PRICE);
    // 400 from the package; then 100 package + 1000 domestic + 100 charged.
    expect(charges.map((c) => c.chargedMb)).toEqual([0, 100]);
    expect(after.chargedOere).toBe(1_000);
    expect(after.chargedMb).toBe(100);
  });

  it('never charges domestic use, nor anything on an unlimited plan', () => {
    const domestic = rateRoaming(month(), [rec(5_000, 'domestic')], PRICE);
    expect(domestic.month.chargedOere).toBe(0);
    const unlimited = rateRoaming(
      month({
        buckets: buckets({
          domesticTotalMb: UNLIMITED_DATA_MB,
          domesticRemainingMb: UNLIMITED_DATA_MB,
        }),
      }),
      [rec(900_000)],
      PRICE,
    );
    expect(unlimited.month.chargedOere).toBe(0);
  });

  it("issue 43 §2: prices a record at the charging system's amount, pro rata to what the allowances leave", () => {
    // 400 from the package, 1000 from home: of the second record (1,200 MB rated at 60 kr.),
    // 100 MB are chargeable = 5 kr.; the domestic record's amount is never charged.
    const rated = rateRoaming(
      month(),
      [rec(400), { ...rec(1_200), ratedOere: 6_000 }, { ...rec(50, 'domestic'), ratedOere: 999 }],
      PRICE,
    );
    expect(rated.charges.map((c) => [c.chargedMb, c.chargeOere])).toEqual([
      [0, 0],
      [100, 500],
      [0, 0],
    ]);
    // Wholly beyond the allowances: exactly the amount, not ROAMING_PRICE_PER_MB.
    const beyond = rateRoaming(
      month({ buckets: buckets({ euAllowanceMb: null, domesticRemainingMb: 0 }) }),
      [{ ...rec(300), ratedOere: 4_321 }],
      PRICE,
    );
    expect(beyond.month).toMatchObject({ chargedMb: 300, chargedOere: 4_321 });
  });

  it('rates in occurredAt order: domestic use before the trip leaves less to roam on', () => {
    const early = rec(1_000, 'domestic', 1);
    const trip = rec(1_500, 'eu', 2);
    const rated = rateRoaming(month(), [trip, early], PRICE);
    // 500 from the package, the domestic data is gone already: 1000 charged.
    expect(rated.month.chargedMb).toBe(1_000);
  });

  it('charges the record that reaches the cap, stops, and writes off what follows', () => {
    const m = month({
      buckets: buckets({ euAllowanceMb: null, domesticRemainingMb: 0 }),
      capOere: 5_000,
    });
    const rated = rateRoaming(m, [rec(300), rec(300), rec(100)], PRICE);
    expect(rated.charges.map((c) => [c.chargeOere, c.writtenOffMb])).toEqual([
      [3_000, 0],
      [3_000, 0],
      [0, 100],
    ]);
    expect(rated.month).toMatchObject({ chargedOere: 6_000, stopped: true, writtenOffMb: 100 });
  });

  it('never stops with the cap off', () => {
    const m = month({
      buckets: buckets({ euAllowanceMb: null, domesticRemainingMb: 0 }),
      capOere: null,
    });
    const rated = rateRoaming(m, [rec(100_000)], PRICE);
    expect(rated.month).toMatchObject({ chargedOere: 1_000_000, stopped: false });
  });

  it('stops at once when the cap was lowered to what is already charged', () => {
    const m = month({
      buckets: buckets({ euAllowanceMb: null, domesticRemainingMb: 0 }),
      capOere: 1_000,
      chargedOere: 2_000,
    });
    expect(rateRoaming(m, [rec(10)], PRICE).month).toMatchObject({
      chargedOere: 2_000,
      writtenOffMb: 10,
      stopped: true,
    });
  });

  it('property: a cap is never passed by more than one record’s charge', () => {
    fc.assert(
      fc.property(arbitraryMonth, arbitraryRecords, (m, records) => {
        const { charges, month: after } = rateRoaming(m, records, PRICE);
        if (after.capOere === null) return;
        const charged = charges.filter((c) => c.chargeOere > 0);
        const last = charged.at(-1)?.chargeOere ?? 0;
        // Before the last charged record the month was below the cap.
        expect(after.chargedOere - last).toBeLessThan(Math.max(after.capOere, 1));
        expect(after.stopped).toBe(after.chargedOere >= after.capOere);
      }),
    );
  });

  it('property: every MB beyond the allowance is charged or written off, never both', () => {
    fc.assert(
      fc.property(arbitraryMonth, arbitraryRecords, (m, records) => {
        const { charges, month: after } = rateRoaming(m, records, PRICE);
        for (const [i, c] of charges.entries()) {
          expect(c.chargedMb + c.writtenOffMb).toBeLessThanOrEqual(records[i]!.usedMb);
          expect(c.chargedMb === 0 || c.writtenOffMb === 0).toBe(true);
          expect(c.chargeOere).toBe(c.chargedMb * PRICE);
        }
        expect(after.chargedOere).toBe(charges.reduce((s, c) => s + c.chargeOere, 0));
        // What the domestic data did not cover: the part of domestic-drawn use beyond it.
        const beyond = charges.reduce((s, c) => s + c.chargedMb + c.writtenOffMb, 0);
        const finalRoom = applyUsage(m.buckets, sumUsage(records)).domesticRemainingMb;
        if (beyond > 0) expect(finalRoom).toBe(0);
      }),
    );
  });

  it('property: splitting the same records differently into batches gives the same charges', () => {
    fc.assert(
      fc.property(
        arbitraryMonth,
        arbitraryRecords,
        fc.array(fc.nat(30), { maxLength: 6 }),
        (m, records, cuts) => {
          const whole = book(m, records);
          const points = [...new Set(cuts.map((c) => Math.min(c, records.length)))].sort(
            (a, b) => a - b,
          );
          let current = m;
          const charges = [];
          let from = 0;
          for (const to of [...points, records.length]) {
            const step = book(current, records.slice(from, to));
            charges.push(...step.charges);
            current = step.month;
            from = to;
          }
          expect(charges).toEqual(whole.charges);
          expect(current).toEqual(whole.month);
        },
      ),
    );
  });
});
