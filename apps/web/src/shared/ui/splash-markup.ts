// The splash of the web app, in one place for its two renderings (issue 13):
// - index.html carries it as static markup (static-splash.ts, a Vite plugin, writes it at build
//   time), so the browser paints the brand the moment the HTML and the stylesheet are in, before
//   any JavaScript has loaded — the web's version of the native splash screen;
// - React renders the same look (app/splash-fallback.tsx) while the first route loads, and then
//   the screen replaces it.
// Plain strings only (no React, no aliases): the Vite plugin imports this file at build time.

/** The two waves of the Alda mark (a 48×48 view box, stroked). */
export const ALDA_MARK_WAVES = [
  { d: 'M6 20c3.5 0 5.5-5 9-5s5.5 5 9 5 5.5-5 9-5 5.5 5 9 5' },
  { d: 'M6 32c3.5 0 5.5-5 9-5s5.5 5 9 5 5.5-5 9-5 5.5 5 9 5', opacity: '0.6' },
] as const;

/** The spinner's track and arc (a 24×24 view box). */
export const SPINNER_ARC = 'M21 12a9 9 0 0 0-9-9';

export const SPLASH_CLASSES = {
  frame:
    'mx-auto flex min-h-dvh max-w-app flex-col items-center justify-center gap-6 bg-ocean-900 text-white',
  mark: 'size-16 text-fjord-300',
  spinner: 'size-6 text-ocean-200',
} as const;

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The splash as static HTML, labelled (for screen readers) with `loadingLabel`. */
export function splashHtml(loadingLabel: string): string {
  const waves = ALDA_MARK_WAVES.map(
    (wave) => `<path d="${wave.d}"${'opacity' in wave ? ` opacity="${wave.opacity}"` : ''}/>`,
  ).join('');
  return (
    `<div role="status" aria-label="${escape(loadingLabel)}" class="${SPLASH_CLASSES.frame}">` +
    `<svg viewBox="0 0 48 48" fill="none" stroke="currentColor" stroke-width="4.5" ` +
    `stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false" ` +
    `class="${SPLASH_CLASSES.mark}">${waves}</svg>` +
    `<svg viewBox="0 0 24 24" aria-hidden="true" class="animate-spin ${SPLASH_CLASSES.spinner}">` +
    `<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-opacity="0.2" stroke-width="3"/>` +
    `<path d="${SPINNER_ARC}" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round"/>` +
    `</svg></div>`
  );
}
