import { useCallback, useEffect, useRef } from 'react';
import type { Location } from 'react-router';
import { useBlocker } from '@/shared/router/app-router';
import { useTranslation } from 'react-i18next';
import { useModal } from '@/shared/ui/modal/modal-context';

export interface UnsavedChangesOptions {
  /**
   * Whether a navigation leaves what is being edited. Default: another path or query. A flow
   * whose steps are in the query (the sign-up) moves between steps freely and names the paths
   * that keep its draft (the terms).
   */
  leaves?: (current: Location, next: Location) => boolean;
  /** Called when the customer chooses to leave anyway (e.g. the kept draft is dropped). */
  onLeave?: () => void;
  /**
   * Ask the browser's own question when the tab is closed or reloaded (default true). Off where
   * the changes are kept on the device, so a reload or a card page's round trip loses nothing.
   */
  askOnUnload?: boolean;
  /** The question's texts; the `unsaved.*` texts by default. */
  texts?: { title: string; message: string; leave: string; stay: string };
}

const anotherPathOrQuery = (current: Location, next: Location) =>
  current.pathname !== next.pathname || current.search !== next.search;

/**
 * SPEC §2/§5 "Unsaved-changes confirmation on navigation": while `isDirty`, leaving the screen
 * asks first (confirm modal: leave or stay). Closing or reloading the tab asks the browser's own
 * question (unless `askOnUnload` is false).
 *
 * Returns `release(released = true)`: call it right before navigating away after a successful
 * save. The form is still dirty in that render (its state updates only on the next one), so
 * without it the screen would ask about changes that were just saved. `release(false)` arms the
 * guard again (a save that failed after all).
 */
export function useUnsavedChangesGuard(
  isDirty: boolean,
  options: UnsavedChangesOptions = {},
): (released?: boolean) => void {
  const { t } = useTranslation();
  const modal = useModal();
  const released = useRef(false);
  const { leaves = anotherPathOrQuery, askOnUnload = true } = options;
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !released.current && isDirty && leaves(currentLocation, nextLocation),
  );
  const { state, proceed, reset } = blocker;

  useEffect(() => {
    if (state !== 'blocked') return;
    let active = true;
    const texts = latest.current.texts;
    void modal
      .confirm({
        title: texts?.title ?? t('unsaved.title'),
        message: texts?.message ?? t('unsaved.message'),
        confirmLabel: texts?.leave ?? t('unsaved.leave'),
        cancelLabel: texts?.stay ?? t('unsaved.stay'),
        tone: 'warning',
      })
      .then((leave) => {
        if (!active) return;
        if (leave) {
          latest.current.onLeave?.();
          proceed?.();
        } else reset?.();
      });
    return () => {
      active = false;
    };
  }, [state, proceed, reset, modal, t]);

  useEffect(() => {
    if (!isDirty || !askOnUnload) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty, askOnUnload]);

  return useCallback((value = true) => {
    released.current = value;
  }, []);
}
