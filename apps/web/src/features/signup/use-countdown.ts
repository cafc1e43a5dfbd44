import { useEffect, useState } from 'react';

const TICK_MS = 250;

/**
 * Whole seconds until `deadline` (ISO time or epoch ms), live, stopping at 0; null without a
 * deadline. Ticks a few times a second so a late tick (background tab) does not show a stale time.
 */
export function useSecondsUntil(deadline: string | number | null): number | null {
  const end =
    deadline === null ? null : typeof deadline === 'number' ? deadline : Date.parse(deadline);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (end === null) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= end) clearInterval(timer);
    }, TICK_MS);
    const first = setTimeout(() => setNow(Date.now()), 0);
    return () => {
      clearInterval(timer);
      clearTimeout(first);
    };
  }, [end]);
  if (end === null || Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/** 1785 → '29:45', 9 → '0:09'. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
