import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@alda/contract/locale';
import { cx } from '../cx';

/**
 * Føroyskt | Enskt: which language of a two-language text is being written or previewed (the
 * content editor, a status message's preview). Each language is named in the reader's language
 * (`common:languageNames`); `mark` adds something after a name (a field with an error).
 */
export function LanguageChoice({
  label,
  value,
  onChange,
  mark,
  className,
}: {
  /** The group's accessible name. */
  label: string;
  value: Locale;
  onChange: (language: Locale) => void;
  mark?: (language: Locale) => ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="group"
      aria-label={label}
      className={cx('flex rounded-lg bg-mist-100 p-1', className)}
    >
      {LOCALES.map((language) => (
        <button
          key={language}
          type="button"
          aria-pressed={value === language}
          onClick={() => onChange(language)}
          className={
            value === language
              ? 'min-h-9 rounded-md bg-white px-3 text-caption font-semibold text-ocean-900 shadow-card'
              : 'min-h-9 rounded-md px-3 text-caption font-semibold text-mist-700 hover:text-ocean-900'
          }
        >
          <span className="inline-flex items-center gap-1.5">
            {t(`languageNames.${language}`)}
            {mark?.(language)}
          </span>
        </button>
      ))}
    </div>
  );
}
