import { useTranslation } from '@/shared/i18n/react';
import { LOCALES, type Locale } from '@alda/contract/locale';
import { useLocaleChoice } from '@/shared/i18n/use-locale';
import { cx } from '@/shared/ui/cx';
import { CheckIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { ROUTES } from '@/shared/config/paths';

/** /menu/mal: Føroyskt or English; the choice is saved on the device and sent with every request. */
export function LanguageScreen() {
  const { t } = useTranslation();
  const [locale, setLocale] = useLocaleChoice();

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('language.title')} back={ROUTES.menu} />
      <ScreenBody>
        <p id="language-lead" className="text-body text-mist-600">
          {t('language.lead')}
        </p>
        <div
          role="radiogroup"
          aria-labelledby="language-lead"
          className="divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card"
        >
          {LOCALES.map((option: Locale) => {
            const selected = option === locale;
            return (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={selected}
                lang={option}
                onClick={() => void setLocale(option)}
                className={cx(
                  'flex min-h-15 w-full items-center gap-4 px-4 py-3 text-left transition-colors hover:bg-mist-50',
                  selected && 'bg-fjord-50/60',
                )}
              >
                <span className="flex-1 text-body font-medium text-mist-900">
                  {t(`language.${option}`)}
                </span>
                <span
                  className={cx(
                    'flex size-6 items-center justify-center rounded-full border-2',
                    selected ? 'border-fjord-500 bg-fjord-500 text-white' : 'border-mist-300',
                  )}
                >
                  {selected && <CheckIcon className="size-4" strokeWidth={3} />}
                </span>
              </button>
            );
          })}
        </div>
      </ScreenBody>
    </main>
  );
}
