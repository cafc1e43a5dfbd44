import { useEffect } from 'react';

/** The parts of a react-hook-form form that re-check one field. */
export interface RevalidateForm<N extends string> {
  trigger: (name: N) => Promise<boolean>;
  getFieldState: (name: N) => { isDirty: boolean; invalid: boolean };
}

/**
 * Judges `name` again whenever `dependency` (another field's value) changes. A form validates
 * only the field being typed in, so a rule across two fields would otherwise keep showing a
 * stale message: the password repeat after the password is corrected (SPEC §5 "The repeat must
 * match"), the city after the postal code changes. A field the user has not touched stays quiet.
 */
export function useRevalidate<N extends string>(
  dependency: unknown,
  name: N,
  form: RevalidateForm<N>,
): void {
  const { trigger, getFieldState } = form;
  useEffect(() => {
    const state = getFieldState(name);
    if (state.isDirty || state.invalid) void trigger(name);
  }, [dependency, name, trigger, getFieldState]);
}
