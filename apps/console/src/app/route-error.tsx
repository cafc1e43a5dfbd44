import { useTranslation } from 'react-i18next';
import { Notice } from '@/shared/ui/notice';

/** A screen that failed to load or render (e.g. a chunk of an old build): say so, offer a reload. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto max-w-lg p-8">
      <Notice tone="danger">
        {t('errors.unknown')}{' '}
        <a href={import.meta.env.BASE_URL} className="font-semibold underline underline-offset-2">
          {t('errors.reload')}
        </a>
      </Notice>
    </main>
  );
}
