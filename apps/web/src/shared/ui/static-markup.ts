import { createContext, useContext } from 'react';

/**
 * True while React renders the build-time markup of the first screen (app/prerender.tsx, ADR
 * 0072). That markup is on screen before the app's JavaScript has run, and the app replaces it
 * when it mounts: a control that only works with JavaScript (a button, not a link) would take a
 * tap and then lose it. Such controls are disabled in the markup, so what the customer taps early
 * is either done (a link loads its page) or plainly not yet possible — never silently dropped
 * (issue 41).
 */
export const StaticMarkup = createContext(false);

/** Whether this render is the build-time markup (see {@link StaticMarkup}). */
export function useStaticMarkup(): boolean {
  return useContext(StaticMarkup);
}
