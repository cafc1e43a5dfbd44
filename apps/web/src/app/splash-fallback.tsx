import { useTranslation } from 'react-i18next';
import { AldaMark } from '@/shared/ui/icons';
import { Spinner } from '@/shared/ui/spinner';

/** Shown while the first route (and its lazy screen) loads: the splash, continued. */
export function SplashFallback() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-label={t('app.loading')}
      className="mx-auto flex min-h-dvh max-w-app flex-col items-center justify-center gap-6 bg-ocean-900 text-white"
    >
      <AldaMark className="size-16 text-fjord-300" />
      <Spinner className="size-6 text-ocean-200" />
    </div>
  );
}
