import { POLLING_INTERVAL_MS } from '@alda/contract/constants';

/**
 * The polling interval of SPEC §4 (60 s). A build may shorten it with `VITE_POLL_INTERVAL_MS`
 * (the browser journeys build with a few seconds so a request shows up without a minute's wait);
 * anything that is not a positive number falls back to the SPEC value.
 */
export function pollIntervalMs(raw: unknown = import.meta.env.VITE_POLL_INTERVAL_MS): number {
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : POLLING_INTERVAL_MS;
}
