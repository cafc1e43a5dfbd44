import { isUnlimited } from '@alda/contract/format/data';
import type { Member } from '@alda/contract/schemas/subscriptions';

/** What a meter shows of one allowance (domestic or EU), all in MB. */
export interface Usage {
  remaining: number;
  total: number;
  used: number;
  /** Share left, 0–1; 1 for an unlimited allowance. */
  fraction: number;
  /** SPEC §9: ≥ 1,024,000 MB shows as unlimited. */
  unlimited: boolean;
  /** Less than a tenth left: the meter warns. */
  low: boolean;
}

/** Below this share left, a meter turns warm. */
const LOW_SHARE = 0.1;

/**
 * The figures of one allowance for display. The total can be smaller than what is left when a
 * balance arrives before its allowance (gift received mid-update); the meter then shows full.
 */
export function usageOf(remaining: number, total: number, used?: number | null): Usage {
  const unlimited = isUnlimited(total) || isUnlimited(remaining);
  const ceiling = Math.max(total, remaining);
  const fraction = unlimited ? 1 : ceiling > 0 ? remaining / ceiling : 0;
  return {
    remaining,
    total: ceiling,
    // The answer's own figure when it has one: on an unlimited plan the remainder never shrinks.
    used: used ?? Math.max(0, ceiling - remaining),
    fraction,
    unlimited,
    low: !unlimited && ceiling > 0 && fraction < LOW_SHARE,
  };
}

/** Domestic data of a number this month. */
export function domesticUsage(
  member: Pick<Member, 'dataRemaining' | 'dataTotal' | 'dataUsed'>,
): Usage {
  return usageOf(
    member.dataRemaining.domestic,
    member.dataTotal.domestic,
    member.dataUsed?.domestic,
  );
}

/**
 * EU data of a number, or null without an EU package. `allowance` is the package's data when the
 * answer carries no EU total (older answers).
 */
export function euUsage(
  member: Pick<Member, 'dataRemaining' | 'dataTotal' | 'dataUsed'>,
  allowance?: number | null,
): Usage | null {
  const remaining = member.dataRemaining.eu;
  if (remaining === null) return null;
  const total = member.dataTotal.eu ?? allowance ?? remaining;
  return usageOf(remaining, total, member.dataUsed?.eu);
}
