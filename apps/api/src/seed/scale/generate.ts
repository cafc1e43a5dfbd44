import { emitGifts, emitSessions, emitSupport } from './activity';
import { emitAgreement, emitMonthlyCharges, emitTopUps } from './billing';
import { Calendar } from './calendar';
import { ReceiptSerials, ReuseBuffer, type GenContext } from './context';
import type { RowSink } from './copy';
import {
  emitAccountsAndLines,
  emitEuPackageChange,
  emitLifecycle,
  emitLineActivity,
  emitLineOrder,
  emitPeople,
  emitSimChange,
} from './emit-lines';
import { planHousehold, type Household } from './households';
import { Ids } from './ids';
import type { Person } from './model';
import { NumberPlan } from './numbers';
import { Random } from './random';
import { emitUsage } from './usage';

/*
 * The row generator: households one after another, each planned (households.ts) and then
 * written to the current batch's sink. One seeded random stream in a fixed order makes the
 * output depend only on seed, line count and clock — not on batch sizes or the database.
 */

const NO_GIFTS = { receivedMb: 0, givenMb: 0 };

export class Generator {
  private readonly ctx: GenContext;
  /** Lines written so far. */
  linesDone = 0;

  constructor(
    readonly lines: number,
    seed: number,
    now: Date,
    passwordHash: string,
  ) {
    const noSink: RowSink = {
      row: () => {
        throw new Error('no batch to write to');
      },
      values: () => {
        throw new Error('no batch to write to');
      },
    };
    this.ctx = {
      random: new Random(seed),
      ids: new Ids(seed),
      numbers: new NumberPlan(new Random(seed ^ 0x6e756d62)),
      cal: new Calendar(now),
      seed,
      passwordHash,
      out: noSink,
      // Each month's receipts fit in its range: at most ~4 per line (charges, top-ups, packages).
      receipts: new ReceiptSerials(Math.max(10_000, 10 ** Math.ceil(Math.log10(lines * 4 + 1)))),
      reuse: new ReuseBuffer(8_192),
      lineSeq: 0,
      userSeq: 0,
      seen: new Map(),
    };
  }

  get done(): boolean {
    return this.linesDone >= this.lines;
  }

  /** The largest receipt serial written (the sequence goes on after it). */
  get maxReceiptSerial(): number {
    return this.ctx.receipts.max;
  }

  /** Writes the next household into `sink`; answers how many lines it had. */
  next(sink: RowSink): number {
    this.ctx.out = sink;
    const household = planHousehold(this.ctx, this.lines - this.linesDone);
    emitHousehold(this.ctx, household);
    this.linesDone += household.lines.length;
    return household.lines.length;
  }
}

function emitHousehold(ctx: GenContext, h: Household): void {
  emitPeople(ctx, h);
  emitAccountsAndLines(ctx, h);
  const gifts = new Map<string, { receivedMb: number; givenMb: number }>();
  for (const account of h.accounts) {
    emitEuPackageChange(ctx, account);
    for (const [lineId, gift] of emitGifts(ctx, account)) gifts.set(lineId, gift);
  }
  for (const line of h.lines) {
    emitLineOrder(ctx, line);
    emitLineActivity(ctx, line);
    emitLifecycle(ctx, line);
    emitSimChange(ctx, line);
    if (line.status !== 'active') continue;
    emitUsage(ctx, line, gifts.get(line.id) ?? NO_GIFTS);
    if (line.isPrepaid) emitTopUps(ctx, line);
  }
  emitBilling(ctx, h);
  for (const person of h.users) {
    emitSessions(ctx, person);
    emitSupport(
      ctx,
      person,
      h.lines.find((l) => l.user === person && l.status === 'active'),
    );
  }
}

/** The owner's agreement and monthly charges, when they pay for a plan. */
function emitBilling(ctx: GenContext, h: Household): void {
  const owner: Person | undefined = h.users[0];
  const paying = h.accounts.filter((a) => a.status === 'active' && a.type !== 'prepaid');
  const first = paying[0];
  if (!owner || !first) return;
  const agreement = emitAgreement(ctx, owner, Math.min(...paying.map((a) => a.createdMs)));
  emitMonthlyCharges(ctx, owner, h.accounts, agreement);
}
