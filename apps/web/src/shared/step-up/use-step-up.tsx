import type { ReactNode } from 'react';
import type { Reauthentication } from '@alda/contract/schemas/sessions';
import type { Result } from '@/shared/api/http';
import { useSession } from '@/shared/services/app-services';
import { useModal } from '@/shared/ui/modal/modal-context';
import { StepUpForm } from './step-up-form';

export interface StepUpOptions<T> {
  title: string;
  message: string;
  confirmLabel: string;
  busyLabel: string;
  tone?: 'danger' | 'primary';
  icon?: ReactNode;
  /** The action, with the password or SMS code the customer gave. */
  submit: (proof: Reauthentication) => Promise<Result<T>>;
}

/**
 * Asks for the password again (a customer without one: an SMS code) in a modal and runs the
 * action with it; resolves with the action's outcome once the modal has closed — null when the
 * customer cancelled. A wrong password or code stays in the modal, under the field.
 */
export function useStepUp() {
  const modal = useModal();
  const { user } = useSession();
  return <T,>(options: StepUpOptions<T>): Promise<Result<T> | null> => {
    let outcome: Result<T> | null = null;
    return modal
      .custom({
        title: options.title,
        message: options.message,
        icon: options.icon,
        render: (close) => (
          <StepUpForm
            hasPassword={user?.hasPassword !== false}
            confirmLabel={options.confirmLabel}
            busyLabel={options.busyLabel}
            tone={options.tone}
            submit={options.submit}
            onDone={(result) => {
              outcome = result as Result<T>;
              close();
            }}
            onCancel={close}
          />
        ),
      })
      .then(() => outcome);
  };
}
