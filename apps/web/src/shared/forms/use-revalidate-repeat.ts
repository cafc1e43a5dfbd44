import { useEffect } from 'react';

/** The parts of a react-hook-form form that re-check the repeat field. */
export interface RepeatFieldForm {
  trigger: (name: 'passwordRepeat') => Promise<boolean>;
  getFieldState: (name: 'passwordRepeat') => { isDirty: boolean };
}

/**
 * SPEC §5 "The repeat must match", judged again whenever the password changes: a form validates
 * only the field being typed in, so without this a repeat typed first would keep saying "do not
 * match" after the password was corrected. An untouched repeat field stays quiet.
 */
export function useRevalidateRepeat(password: string, form: RepeatFieldForm): void {
  const { trigger, getFieldState } = form;
  useEffect(() => {
    if (getFieldState('passwordRepeat').isDirty) void trigger('passwordRepeat');
  }, [password, trigger, getFieldState]);
}
