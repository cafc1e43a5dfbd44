import { useTranslation } from 'react-i18next';
import { formatDate } from '@alda/contract/format/date';
import type { Locale } from '@alda/contract/locale';
import { cx } from '@/shared/cx';
import { AppMarkdown } from './app-markdown';

/*
 * A page of terms or privacy as the customer's app shows it
 * (apps/web/src/features/content/content-screen.tsx): the screen's title in its header, and the
 * card with "Last updated …" and the markdown — the app's classes, on a phone-wide screen. The
 * app's own texts are in the language previewed.
 */

export function ContentPreview({
  title,
  markdown,
  language,
  updatedAt,
}: {
  title: string;
  markdown: string;
  language: Locale;
  /** The date the app will show: the publication's (today, for a draft). */
  updatedAt: Date | string;
}) {
  const { t } = useTranslation('content');
  const shownTitle = title.trim();
  return (
    <div
      lang={language}
      data-testid="content-preview"
      // It scrolls: a region the keyboard can reach and scroll (WCAG 2.1.1).
      role="region"
      aria-label={t('preview.frame')}
      tabIndex={0}
      className="isolate mx-auto h-[44rem] w-full max-w-[24rem] overflow-y-auto rounded-[2.25rem] border-[6px] border-ocean-950 bg-mist-50 shadow-raised"
    >
      <div className="sticky top-0 bg-mist-50/95 backdrop-blur">
        <div className="flex min-h-14 items-center gap-2 px-5">
          <p
            className={cx(
              'min-w-0 pt-2 text-heading font-bold break-words',
              shownTitle ? 'text-ocean-950' : 'text-mist-500 italic',
            )}
          >
            {shownTitle || t('preview.app.emptyTitle', { lng: language })}
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-5 px-5 pt-3 pb-8">
        <article className="flex flex-col gap-2 rounded-card bg-white p-5 shadow-card">
          <p className="text-caption text-mist-500">
            {t('preview.app.updated', { lng: language, date: formatDate(updatedAt) })}
          </p>
          {markdown.trim() ? (
            <AppMarkdown markdown={markdown} />
          ) : (
            <p className="text-body text-mist-500 italic">
              {t('preview.app.emptyText', { lng: language })}
            </p>
          )}
        </article>
      </div>
    </div>
  );
}
