import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '@/shared/ui/cx';
import { CloseIcon, ErrorIcon, InfoIcon, WarningIcon } from '@/shared/ui/icons';
import { useToast } from './toast-context';
import type { Toast, ToastType } from './toast-store';

const styles: Record<ToastType, { box: string; icon: string }> = {
  info: { box: 'bg-ocean-900 text-white', icon: 'text-ocean-200' },
  warning: { box: 'bg-puffin-50 text-mist-900 ring-1 ring-puffin-200', icon: 'text-puffin-600' },
  error: { box: 'bg-danger-600 text-white', icon: 'text-white' },
};

const icons: Record<ToastType, typeof InfoIcon> = {
  info: InfoIcon,
  warning: WarningIcon,
  error: ErrorIcon,
};

/**
 * The toast stack, fixed above the footer when the screen has one (SPEC §2), otherwise above the
 * bottom safe area. Errors are announced assertively, the rest politely.
 */
export function ToastViewport({ aboveFooter }: { aboveFooter: boolean }) {
  const { t } = useTranslation();
  const store = useToast();
  const toasts = useSyncExternalStore(store.subscribe, store.getToasts, store.getToasts);
  return (
    <section
      aria-label={t('toast.region')}
      className={cx(
        'pointer-events-none fixed inset-x-0 z-60 mx-auto flex w-full max-w-app flex-col gap-2 px-4',
        aboveFooter ? 'bottom-above-footer' : 'bottom-safe',
      )}
    >
      {toasts.map((toast) => (
        <ToastItem
          key={toast.id}
          toast={toast}
          onDismiss={() => store.dismiss(toast.id)}
          label={t('toast.dismiss')}
        />
      ))}
    </section>
  );
}

function ToastItem({
  toast,
  onDismiss,
  label,
}: {
  toast: Toast;
  onDismiss: () => void;
  label: string;
}) {
  const Icon = icons[toast.type];
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-toast-type={toast.type}
      className={cx(
        'pointer-events-auto flex animate-toast-in items-center gap-3 rounded-2xl py-3 pr-2 pl-4 shadow-raised',
        styles[toast.type].box,
      )}
    >
      <Icon className={cx('size-6 shrink-0', styles[toast.type].icon)} />
      <p className="flex-1 text-body font-medium">{toast.message}</p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={label}
        className="inline-flex size-10 shrink-0 items-center justify-center rounded-full opacity-80 hover:bg-black/10 hover:opacity-100"
      >
        <CloseIcon className="size-5" />
      </button>
    </div>
  );
}
