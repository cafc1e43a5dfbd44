import type { ParseKeys } from 'i18next';
import type { UIMatch } from 'react-router';

/** Per-route flags, set in `handle` (SPEC §2: "The footer appears according to a route flag"). */
export interface RouteHandle {
  /** Show the footer navigation. A child can turn it off again with `false`. */
  footer?: boolean;
  /** i18n key of the document title. */
  title?: ParseKeys;
}

/** The deepest match's value of a handle flag. */
export function handleValue<K extends keyof RouteHandle>(
  matches: UIMatch[],
  key: K,
): RouteHandle[K] | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle && handle[key] !== undefined) return handle[key];
  }
  return undefined;
}
