import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { UsageRecord } from '@alda/contract/schemas/usage';
import { usageRecordsRequest } from '@alda/contract/schemas/usage';
import { lineBalances } from '../src/db/schema/balances';
import { seedDemoData } from '../src/seed/seed';
import { createUsageSimulator, SIMULATED_MAX_MB } from '../src/jobs/usage-simulator';
import { LINES, NOW } from './demo-accounts';
import { createTestApp, waitFor } from './helper';

const log = pino({ level: 'silent' });

describe('demo usage simulator (DEMO_MODE)', () => {
  it('uses a few MB per number per round, EU data only where there is an EU package', async () => {
    const sent: UsageRecord[][] = [];
    const simulator = createUsageSimulator({
      intervalS: 3600,
      log,
      random: () => 0.1,
      numbers: async () => [
        { phoneNumber: '214455', hasEuPackage: true },
        { phoneNumber: '214466', hasEuPackage: false },
      ],
    });
    simulator.start({
      ingest: async (records) => {
        sent.push([...records]);
        return { accepted: records.length, duplicates: 0, rejected: [] };
      },
    });
    const records = await simulator.tick();
    await simulator.stop();
    expect(sent).toEqual([records]);
    expect(records.map((r) => [r.phoneNumber, r.kind])).toEqual([
      ['214455', 'domestic'],
      ['214455', 'eu'],
      ['214466', 'domestic'],
    ]);
    for (const r of records) {
      expect(r.usedMb).toBeGreaterThanOrEqual(1);
      expect(r.usedMb).toBeLessThanOrEqual(SIMULATED_MAX_MB);
    }
    // What it sends is a valid feed batch, with unique record ids.
    usageRecordsRequest.parse({ records });
    expect(new Set(records.map((r) => r.recordId)).size).toBe(records.length);
    // Stopped: nothing more is sent.
    expect(await simulator.tick()).toEqual([]);
  });

  it('runs in a demo app through the usage feed, and stops when the app closes', async () => {
    const t = await createTestApp(
      { DEMO_MODE: 'true', USAGE_SIMULATOR_INTERVAL_S: '1' },
      { now: () => NOW },
    );
    try {
      await seedDemoData(t.app.db, NOW);
      const remaining = async () => {
        const [row] = await t.app.db
          .select()
          .from(lineBalances)
          .where(eq(lineBalances.lineId, LINES.sunneva));
        return row?.domesticRemainingMb ?? 0;
      };
      const start = await remaining();
      await t.app.ready();
      await waitFor(async () => ((await remaining()) < start ? true : undefined), 8_000);
    } finally {
      const clear = vi.spyOn(globalThis, 'clearInterval');
      await t.close();
      expect(clear).toHaveBeenCalled();
      clear.mockRestore();
    }
  });

  it('stays off without DEMO_MODE', async () => {
    const t = await createTestApp({ USAGE_SIMULATOR_INTERVAL_S: '1' }, { now: () => NOW });
    try {
      await seedDemoData(t.app.db, NOW);
      await t.app.ready();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const [row] = await t.app.db
        .select()
        .from(lineBalances)
        .where(eq(lineBalances.lineId, LINES.sunneva));
      expect(row?.updatedAt).not.toEqual(NOW);
    } finally {
      await t.close();
    }
  });
});
