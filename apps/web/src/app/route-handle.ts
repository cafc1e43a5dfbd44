import type { ParseKeys } from 'i18next';

/** Per-route flags, set in `handle` (SPEC §2: "The footer appears according to a route flag"). */
export interface RouteHandle {
  /** Show the footer navigation. A child can turn it off again with `false`. */
  footer?: boolean;
  /** i18n key of the document title. */
  title?: ParseKeys;
}

/** The deepest match's value of a handle flag (`handles` outermost first: useRouteHandles). */
export function handleValue<K extends keyof RouteHandle>(
  handles: unknown[],
  key: K,
): RouteHandle[K] | undefined {
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i] as RouteHandle | undefined;
    if (handle && handle[key] !== undefined) return handle[key];
  }
  return undefined;
}
