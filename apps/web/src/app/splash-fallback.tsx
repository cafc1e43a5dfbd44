import { useTranslation } from 'react-i18next';
import { AldaMark } from '@/shared/ui/icons';
import { Spinner } from '@/shared/ui/spinner';
import { SPLASH_CLASSES } from '@/shared/ui/splash-markup';

/**
 * Shown while the first route (and its lazy screen) loads: the splash, continued. index.html
 * carries the same look as static markup (shared/ui/splash-markup.ts).
 */
export function SplashFallback() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('app.loading')} className={SPLASH_CLASSES.frame}>
      <AldaMark className={SPLASH_CLASSES.mark} />
      <Spinner className={SPLASH_CLASSES.spinner} />
    </div>
  );
}
