import { RefreshCw } from 'lucide-react';
import { useErrorText } from '@/shared/error-text';
import { Button } from './button';
import { Notice } from './notice';

/**
 * What a screen shows when its data could not be fetched: what failed (when the page's heading
 * does not already say it), the server's or the client's reason, and a button to try again.
 */
export function LoadFailed({
  title,
  error,
  retry,
  onRetry,
}: {
  title?: string;
  error: unknown;
  retry: string;
  onRetry: () => void;
}) {
  const errorText = useErrorText();
  return (
    <Notice tone="danger">
      {title ? <p>{title}</p> : null}
      <p className={title ? 'mt-1 font-normal' : undefined}>{errorText(error)}</p>
      <Button
        variant="secondary"
        size="sm"
        className="mt-3"
        icon={<RefreshCw aria-hidden="true" className="size-4" />}
        onClick={onRetry}
      >
        {retry}
      </Button>
    </Notice>
  );
}
