import { useTranslation } from 'react-i18next';
import { LOCALES } from '@alda/contract/locale';
import { cx } from './cx';
import { changeLocale, localeOf } from './i18n';

/** Føroyskt | English, remembered on this computer (`alda-console-lang`). */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = localeOf(i18n);
  return (
    <div
      role="group"
      aria-label={t('language.label')}
      className={cx('inline-flex rounded-lg border border-mist-200 bg-mist-50 p-0.5', className)}
    >
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="button"
          lang={locale}
          aria-pressed={locale === current}
          onClick={() => void changeLocale(i18n, locale)}
          className={cx(
            'min-h-8 rounded-md px-2.5 text-caption font-semibold transition-colors',
            locale === current
              ? 'bg-white text-ocean-900 shadow-card'
              : 'text-mist-600 hover:text-ocean-800',
          )}
        >
          {t(`language.${locale}`)}
        </button>
      ))}
    </div>
  );
}
