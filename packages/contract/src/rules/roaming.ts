/**
 * The roaming spend cap (issue 33 §2, docs/decisions/0078-roaming-spend-cap.md): a monthly
 * ceiling per number on what data abroad beyond the included allowance (the EU package and the
 * plan's domestic data) costs. The API decides with these; the app imports the same functions
 * to show the confirmation and the state before anything is sent.
 */

import type { RoamingCap } from '../schemas/roaming';

/** Limits of a cap the account owner sets, in øre with VAT: whole kroner, 1–10,000 kr. */
export const ROAMING_CAP_LIMITS = { minOere: 100, maxOere: 1_000_000, stepOere: 100 } as const;

/** The notification thresholds of a cap, in per cent of the cap (EU Regulation 2022/612). */
export const ROAMING_CAP_THRESHOLDS = [80, 100] as const;
export type RoamingCapThreshold = (typeof ROAMING_CAP_THRESHOLDS)[number];

/**
 * The highest threshold `chargedOere` has reached of `capOere` (null: the cap is off, or below
 * 80 %). Counted exactly in integers: `charged × 100 ≥ threshold × cap`.
 */
export function roamingCapThreshold(
  chargedOere: number,
  capOere: number | null,
): RoamingCapThreshold | null {
  if (capOere === null) return null;
  let reached: RoamingCapThreshold | null = null;
  for (const threshold of ROAMING_CAP_THRESHOLDS) {
    if (chargedOere * 100 >= threshold * capOere) reached = threshold;
  }
  return reached;
}

/**
 * Whether changing a cap from `current` to `next` (null: off) exposes the customer to more
 * charges and so needs the confirmation that names the risk: turning it off, or raising it.
 * Lowering it, or setting what is set, does not.
 */
export function capChangeNeedsConfirmation(current: number | null, next: number | null): boolean {
  if (next === null) return current !== null;
  if (current === null) return false;
  return next > current;
}

/**
 * Whether roaming data is (to be) stopped with `chargedOere` charged this month under `capOere`:
 * the cap is on and reached.
 */
export function capReached(chargedOere: number, capOere: number | null): boolean {
  return capOere !== null && chargedOere >= capOere;
}

/** A number's cap as set on it: its own amount (null: the default) or turned off. */
export interface CapSetting {
  roamingCapOere: number | null;
  roamingCapOff: boolean;
}

/** The cap that applies to a number: null when turned off, else its own or the default. */
export function effectiveRoamingCap(setting: CapSetting, defaultCapOere: number): number | null {
  if (setting.roamingCapOff) return null;
  return setting.roamingCapOere ?? defaultCapOere;
}

/** The roaming cap's settings: the default cap and the price per MB abroad, øre with VAT. */
export interface RoamingSettings {
  defaultCapOere: number;
  pricePerMbOere: number;
}

/** A line's roaming month as stored with its balance. */
export interface RoamingMonthFigures {
  roamingChargedOere: number;
  roamingChargedMb: number;
  roamingStoppedAt: Date | null;
}

/**
 * A number's cap and month's roaming charges as the API shows them (`roamingCap`); a number
 * without a balance yet has charged nothing.
 */
export function roamingCapOf(
  setting: CapSetting,
  month: RoamingMonthFigures | null | undefined,
  settings: RoamingSettings,
): RoamingCap {
  return {
    capOere: effectiveRoamingCap(setting, settings.defaultCapOere),
    defaultCapOere: settings.defaultCapOere,
    chargedOere: month?.roamingChargedOere ?? 0,
    chargedMb: month?.roamingChargedMb ?? 0,
    pricePerMbOere: settings.pricePerMbOere,
    stopped: (month?.roamingStoppedAt ?? null) !== null,
    stoppedAt: month?.roamingStoppedAt?.toISOString() ?? null,
  };
}
