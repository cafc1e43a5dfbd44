/**
 * Work the first screen does not show waits until that screen is on the display (issue 45): the
 * owner's package-request inbox on home, the first poll of notifications and data-transfer
 * requests. Started during the first render, their chunks and requests shared a phone's link and
 * main thread with the screen itself and held up its first paint (Lighthouse's first open of home
 * counted six of them on its largest paint's path).
 *
 * Open by default, so a screen rendered on its own (a test, a later screen) waits for nothing;
 * main.tsx holds it for the app's start.
 */
let release: (() => void) | null = null;
let painted: Promise<void> = Promise.resolve();
/** Whether the app's start held the work (main.tsx); only then is there a first paint to wait for. */
let held = false;

/** Until the app's first screen has been painted, {@link afterFirstPaint} waits (main.tsx). */
export function holdUntilFirstPaint(): void {
  if (release) return;
  held = true;
  painted = new Promise<void>((resolve) => {
    release = resolve;
  });
}

/** How long the held work waits at most for the first screen's paint to be reported. */
export const FIRST_PAINT_WAIT_MS = 500;

/**
 * The first screen has been committed (the root layout's first layout effect, before the browser
 * paints it). Opens when the browser reports a largest contentful paint after this moment, that is
 * once the screen has been put on the display: a task after the next animation frame is not
 * enough, since the frame is shown tens of milliseconds after the main thread has painted it.
 * Without that report (a browser without the API, a screen no larger than the splash, a tap before
 * it) it opens after {@link FIRST_PAINT_WAIT_MS}; a hidden page, which paints nothing, at once.
 */
export function firstScreenCommitted(): void {
  const open = release;
  if (!open) return;
  release = null;
  if (document.visibilityState === 'hidden') return open();
  const committedAt = performance.now();
  let observer: PerformanceObserver | null = null;
  const done = () => {
    observer?.disconnect();
    clearTimeout(fallback);
    open();
  };
  const fallback = setTimeout(done, FIRST_PAINT_WAIT_MS);
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')
  ) {
    observer = new PerformanceObserver((list) => {
      if (list.getEntries().some((entry) => entry.startTime >= committedAt)) done();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  }
}

/** A task of its own: what waited for the first paint does not all run in one long task. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Resolves once the app's first screen is on the display (at once when nothing holds it). When
 * it was held, each waiter goes on in a task of its own: together, the first poll, home's inbox,
 * the modal host and the other texts made one task of 70–130 ms at a phone's speed, which the
 * customer's first tap would wait behind (Lighthouse counts it in TBT).
 */
export function afterFirstPaint(): Promise<void> {
  return held ? painted.then(nextTask) : painted;
}
