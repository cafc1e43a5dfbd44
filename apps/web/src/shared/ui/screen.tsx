import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cx } from './cx';
import { ChevronLeftIcon } from './icons';

export interface ScreenHeaderProps {
  title: string;
  /** Where back goes; `true` goes back in history. Omit for top-level screens. */
  back?: string | true;
  /** Optional content under the title row (e.g. a lead paragraph). */
  children?: ReactNode;
}

/** The sticky header of a screen: optional back button and the screen's title (its h1). */
export function ScreenHeader({ title, back, children }: ScreenHeaderProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <header className="pt-safe sticky top-0 z-20 bg-mist-50/95 backdrop-blur supports-[backdrop-filter]:bg-mist-50/80">
      <div className="px-safe flex min-h-14 items-center gap-2">
        {back !== undefined && (
          <button
            type="button"
            onClick={() => (back === true ? navigate(-1) : navigate(back))}
            className="-ml-2 inline-flex size-11 items-center justify-center rounded-full text-ocean-900 hover:bg-mist-200"
            aria-label={t('common.back')}
          >
            <ChevronLeftIcon />
          </button>
        )}
        <h1
          className={cx(
            'min-w-0 text-heading font-bold break-words text-ocean-950',
            back === undefined && 'pt-2',
          )}
        >
          {title}
        </h1>
      </div>
      {children}
    </header>
  );
}

/** The scrolling body of a screen, with side padding and room for the footer when it shows. */
export function ScreenBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cx('px-safe flex flex-col gap-5 pt-3 pb-8', className)}>{children}</div>;
}
