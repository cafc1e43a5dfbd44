/*
 * Whether the staff member is at the desk (docs/decisions/0075-staff-console.md "Sessions"): the
 * last time they used the keyboard, mouse or touch. A request the console makes on its own while
 * nobody has touched it for a while (a screen's 5-second refresh, the session poll) is sent as
 * background (`X-Staff-Background: 1`), and the server does not restart the 15-minute idle
 * clock for it — so an unattended console still signs itself out.
 */

/** Without input for this long, the console's own requests are background requests. */
export const IDLE_AFTER_MS = 60_000;

const EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

let lastActivity = Date.now();
let listening = false;

function markActive(): void {
  lastActivity = Date.now();
}

/** Starts listening (once); the console's entry calls it. */
export function watchActivity(target: Pick<Window, 'addEventListener'> = window): void {
  if (listening) return;
  listening = true;
  for (const type of EVENTS)
    target.addEventListener(type, markActive, { capture: true, passive: true });
}

/** True when nobody has used the console for {@link IDLE_AFTER_MS}. */
export function isIdle(now = Date.now()): boolean {
  return now - lastActivity >= IDLE_AFTER_MS;
}

/** For tests: as if the staff member used the console at `at`. */
export function setLastActivity(at: number): void {
  lastActivity = at;
}
