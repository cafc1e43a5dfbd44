import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppServices } from '@/shared/services/app-services';
import { useModal } from '@/shared/ui/modal/modal-context';

/**
 * SPEC §2/§5 "Unsaved-changes confirmation on navigation" for a flow whose steps are in the URL
 * (`?stig=`): moving between steps is free, leaving the flow's path with choices made asks first,
 * and leaving anyway calls `onLeave` (the draft is dropped). `exempt` paths (the terms, read and
 * come back) pass without a question and keep the draft. Unlike `useUnsavedChangesGuard` there is
 * no `beforeunload` question: the draft is kept on the device, so a reload or the card page's
 * round trip loses nothing.
 *
 * `allow(true)` lets the next navigations through (the payment status screen, the order placed);
 * `allow(false)` arms the guard again after a failed attempt.
 */
export function useLeaveFlowGuard(
  active: boolean,
  onLeave: () => void,
  exempt: readonly string[] = [],
): (allowed: boolean) => void {
  const { t } = useTranslation();
  const modal = useModal();
  const { session } = useAppServices();
  const allowed = useRef(false);
  const leave = useRef(onLeave);
  useEffect(() => {
    leave.current = onLeave;
  }, [onLeave]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      active &&
      !allowed.current &&
      // Logout and an expired session go to login without a question.
      session.getState().user !== null &&
      currentLocation.pathname !== nextLocation.pathname &&
      !exempt.includes(nextLocation.pathname),
  );
  const { state, proceed, reset } = blocker;

  useEffect(() => {
    if (state !== 'blocked') return;
    let live = true;
    void modal
      .confirm({
        title: t('signup.leave.title'),
        message: t('signup.leave.message'),
        confirmLabel: t('signup.leave.leave'),
        cancelLabel: t('signup.leave.stay'),
        tone: 'warning',
      })
      .then((go) => {
        if (!live) return;
        if (go) {
          leave.current();
          proceed?.();
        } else reset?.();
      });
    return () => {
      live = false;
    };
  }, [state, proceed, reset, modal, t]);

  return useCallback((value: boolean) => {
    allowed.current = value;
  }, []);
}
