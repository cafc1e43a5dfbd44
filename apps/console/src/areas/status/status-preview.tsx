import { useTranslation } from 'react-i18next';
import { Info } from 'lucide-react';
import type { Locale } from '@alda/contract/locale';
import { cx } from '@/shared/cx';

/*
 * The status message as the customer's app shows it at resume: the app's info modal
 * (apps/web/src/shared/ui/modal/modal-host.tsx, kind `info`, opened by
 * apps/web/src/features/app-status/status-check.ts) over the dimmed app, on a phone-sized screen.
 * The modal is not imported: it lives on the app's modal store, Radix Dialog and the app's i18n.
 * Its markup and Tailwind classes are repeated here as they are there — the frame, the info tone's
 * icon circle, the title, the body (`whitespace-pre-line`: line breaks as typed) and the app's
 * primary block button — with the app's own button text in the language shown.
 */

export interface StatusPreviewProps {
  title: string;
  body: string;
  /** The language of the app shown; the texts above are in it. */
  language: Locale;
}

export function StatusPreview({ title, body, language }: StatusPreviewProps) {
  const { t } = useTranslation('status');
  const shownTitle = title.trim();
  const shownBody = body.trim();
  return (
    <div
      lang={language}
      data-testid="status-preview"
      className="relative isolate mx-auto h-[36rem] w-full max-w-[22.5rem] overflow-hidden rounded-[2.25rem] border-[6px] border-ocean-950 bg-mist-50 shadow-raised"
    >
      {/* The app behind the modal: a home screen's shapes, dimmed as the app dims it. */}
      <div aria-hidden="true" className="flex flex-col gap-4 px-5 pt-10">
        <div className="h-6 w-2/5 rounded-full bg-mist-200" />
        <div className="h-36 rounded-card bg-white shadow-card" />
        <div className="h-20 rounded-card bg-white shadow-card" />
        <div className="h-20 rounded-card bg-white shadow-card" />
      </div>
      <div aria-hidden="true" className="absolute inset-0 bg-ocean-950/50 backdrop-blur-[2px]" />
      <div
        // A long text scrolls inside the dialog, as in the app: reachable by keyboard (WCAG 2.1.1).
        role="region"
        aria-label={t('preview.frame')}
        tabIndex={0}
        className={cx(
          'absolute top-1/2 left-1/2 flex max-h-[calc(100%-2rem)] w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2',
          'flex-col gap-5 overflow-y-auto rounded-3xl bg-white p-6 shadow-raised',
        )}
      >
        <div className="flex flex-col gap-5">
          <div className="flex flex-col items-center gap-3 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
              <Info strokeWidth={1.8} aria-hidden="true" focusable="false" className="size-6" />
            </span>
            <p
              className={cx(
                'text-heading font-bold break-words',
                shownTitle ? 'text-ocean-950' : 'text-mist-500 italic',
              )}
            >
              {shownTitle || t('preview.app.emptyTitle', { lng: language })}
            </p>
            <p
              className={cx(
                'text-body break-words whitespace-pre-line',
                shownBody ? 'text-mist-600' : 'text-mist-500 italic',
              )}
            >
              {shownBody || t('preview.app.emptyBody', { lng: language })}
            </p>
          </div>
          <div className="flex flex-col gap-2">
            <span
              aria-hidden="true"
              className="inline-flex min-h-13 w-full items-center justify-center gap-2 rounded-control bg-ocean-900 px-5 text-lead font-semibold text-white select-none"
            >
              {t('preview.app.close', { lng: language })}
            </span>
          </div>
        </div>
      </div>
    </div>
  );
}
