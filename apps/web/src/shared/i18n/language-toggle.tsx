import { useTranslation } from 'react-i18next';
import { LOCALES } from '@alda/contract/locale';
import { cx } from '@/shared/ui/cx';
import { useLocaleChoice } from './use-locale';

/** A compact Føroyskt | English switch (login screens, where the menu is out of reach). */
export function LanguageToggle({ className }: { className?: string }) {
  const { t } = useTranslation();
  const [locale, setLocale] = useLocaleChoice();
  return (
    <div
      role="radiogroup"
      aria-label={t('language.title')}
      className={cx(
        'inline-flex rounded-full bg-mist-100 p-1 text-caption font-semibold',
        className,
      )}
    >
      {LOCALES.map((option) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={option === locale}
          lang={option}
          onClick={() => void setLocale(option)}
          className={cx(
            'min-h-9 rounded-full px-4 transition-colors',
            option === locale
              ? 'bg-white text-ocean-900 shadow-card'
              : 'text-mist-600 hover:text-ocean-800',
          )}
        >
          {t(`language.${option}`)}
        </button>
      ))}
    </div>
  );
}
