import { useEffect, useState } from 'react';

const TICK_MS = 250;

/**
 * Whole seconds until `deadline` (epoch ms), counting down live and stopping at 0. Ticks a few
 * times a second so the number changes on time even when a tick is late (background tabs).
 */
export function useSecondsLeft(deadline: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const timer = setInterval(() => {
      tick();
      if (Date.now() >= deadline) clearInterval(timer);
    }, TICK_MS);
    // A new deadline (a resend) shows at once, not on the next tick.
    const first = setTimeout(tick, 0);
    return () => {
      clearInterval(timer);
      clearTimeout(first);
    };
  }, [deadline]);
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** 75 → '1:15', 9 → '0:09'. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
