import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { ErrorIcon, RefreshIcon } from './icons';

/** A failed load: what went wrong and a way to try again. */
export function ErrorState({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-4 rounded-card bg-white px-6 py-10 text-center shadow-card"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-danger-50 text-danger-600">
        <ErrorIcon />
      </span>
      <p className="text-body text-mist-700">{message}</p>
      {onRetry && (
        <Button
          variant="secondary"
          size="md"
          onClick={onRetry}
          loading={retrying}
          icon={<RefreshIcon className="size-5" />}
        >
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
