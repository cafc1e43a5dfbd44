import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useModal } from '@/shared/ui/modal/modal-context';

/**
 * SPEC §2/§5 "Unsaved-changes confirmation on navigation": while `isDirty`, leaving the screen
 * asks first (confirm modal: leave or stay). Closing or reloading the tab asks the browser's own
 * question.
 *
 * Returns `release`: call it right before navigating away after a successful save. The form is
 * still dirty in that render (its state updates only on the next one), so without it the screen
 * would ask about changes that were just saved.
 */
export function useUnsavedChangesGuard(isDirty: boolean): () => void {
  const { t } = useTranslation();
  const modal = useModal();
  const released = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !released.current &&
      isDirty &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );
  const { state, proceed, reset } = blocker;

  useEffect(() => {
    if (state !== 'blocked') return;
    let active = true;
    void modal
      .confirm({
        title: t('unsaved.title'),
        message: t('unsaved.message'),
        confirmLabel: t('unsaved.leave'),
        cancelLabel: t('unsaved.stay'),
        tone: 'warning',
      })
      .then((leave) => {
        if (!active) return;
        if (leave) proceed?.();
        else reset?.();
      });
    return () => {
      active = false;
    };
  }, [state, proceed, reset, modal, t]);

  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);

  return useCallback(() => {
    released.current = true;
  }, []);
}
