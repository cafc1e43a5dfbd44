import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@alda/contract/constants';
import { passwordProblems, type PasswordProblem } from '@alda/contract/rules/password';
import { cx } from '@/shared/ui/cx';
import { CheckIcon } from '@/shared/ui/icons';

const RULES: PasswordProblem[] = ['TOO_SHORT', 'NO_UPPER', 'NO_LOWER', 'NO_DIGIT_OR_SYMBOL'];

/**
 * The SPEC §5 password rule as a checklist that fills in while the user types (the contract's
 * `passwordProblems`, so it says exactly what the server will check).
 */
export function PasswordStrength({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation();
  const problems = new Set(passwordProblems(password));
  return (
    <div id={id} className="-mt-2 flex flex-col gap-1.5">
      <p className="text-caption text-mist-500">{t('forms.passwordRules.title')}</p>
      <ul className="grid grid-cols-2 gap-x-3 gap-y-1.5">
        {RULES.map((rule) => {
          const met = password !== '' && !problems.has(rule);
          return (
            <li
              key={rule}
              data-met={met}
              className={cx(
                'flex items-center gap-1.5 text-caption',
                met ? 'font-medium text-success-600' : 'text-mist-500',
              )}
            >
              <span
                aria-hidden="true"
                className={cx(
                  'flex size-4 shrink-0 items-center justify-center rounded-full',
                  met ? 'bg-success-600 text-white' : 'border border-mist-300',
                )}
              >
                {met && <CheckIcon className="size-3" strokeWidth={3} />}
              </span>
              <span>
                {t(`forms.passwordRules.${rule}`, { count: PASSWORD_MIN_LENGTH })}
                <span className="sr-only">
                  {' '}
                  {met ? t('forms.passwordRules.met') : t('forms.passwordRules.missing')}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
