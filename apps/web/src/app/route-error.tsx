import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/shared/ui/button';
import { ErrorIcon, RefreshIcon } from '@/shared/ui/icons';
import { reportError } from './error-reporting';

/** The error boundary of the root route: an unexpected error, reported, with a way out. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  useEffect(() => {
    console.warn('Unexpected error', error);
    reportError(error);
  }, [error]);
  return (
    <main className="pt-safe mx-auto flex min-h-dvh max-w-app flex-col items-center justify-center gap-5 bg-mist-50 px-8 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-600">
        <ErrorIcon className="size-7" />
      </span>
      <h1 className="text-title font-bold text-ocean-950">{t('errorPage.title')}</h1>
      <p className="text-body text-mist-600">{t('errorPage.body')}</p>
      <Button onClick={() => window.location.assign('/')} icon={<RefreshIcon className="size-5" />}>
        {t('errorPage.reload')}
      </Button>
    </main>
  );
}
