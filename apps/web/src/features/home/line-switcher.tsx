import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { customerLines } from '@/shared/account/family';
import { accountKeys, fetchSubscriptions } from '@/shared/api/account-data';
import { chosenLine } from '@/shared/account/chosen-line';
import { unwrap } from '@/shared/api/http';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useAppServices } from '@/shared/services/app-services';
import { cx } from '@/shared/ui/cx';
import { Spinner } from '@/shared/ui/spinner';
import { useToast } from '@/shared/ui/toast/toast-context';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { apiErrorOf } from '@/shared/api/query-error';

/**
 * Switches the current line: GET /subscriptions?line=… and the answer becomes the subscription
 * state every screen reads (and later refetches keep that line, see accountQueries); the choice
 * is kept on the device for the next start (`chosenLine`).
 */
function useSwitchLine() {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  return useMutation({
    mutationFn: async (line: string) => unwrap(await fetchSubscriptions(http, line)),
    onSuccess: (data) => {
      queryClient.setQueryData(accountKeys.resource('subscriptions'), data);
      // Remembered on the device, so a reload or the next start opens the same number.
      const line = data.currentAccount?.currentMember.phoneNumber;
      if (line) void chosenLine.set(line).catch(() => {});
    },
    onError: (error) => toast.show({ type: 'error', message: errorMessage(apiErrorOf(error)) }),
  });
}

/** Tabs of the customer's numbers on home, shown when there is more than one (SPEC §2 home). */
export function LineSwitcher({ subscriptions }: { subscriptions: SubscriptionsResponse }) {
  const { t } = useTranslation();
  const lines = customerLines(subscriptions);
  const switchLine = useSwitchLine();
  const current = subscriptions.currentAccount?.currentMember.phoneNumber;
  if (lines.length < 2) return null;
  return (
    <div
      role="tablist"
      aria-label={t('home.lines.label')}
      className="-mx-5 flex gap-2 overflow-x-auto px-5 pb-1 [scrollbar-width:none]"
    >
      {lines.map((line) => {
        const selected = line.phoneNumber === current;
        const pending = switchLine.isPending && switchLine.variables === line.phoneNumber;
        return (
          <button
            key={line.phoneNumber}
            type="button"
            role="tab"
            aria-selected={selected}
            disabled={switchLine.isPending}
            onClick={() => {
              if (!selected) switchLine.mutate(line.phoneNumber);
            }}
            className={cx(
              'flex min-h-11 shrink-0 items-center gap-2 rounded-full px-4 text-body font-semibold tabular-nums transition-colors',
              selected
                ? 'bg-white text-ocean-900 shadow-card'
                : 'bg-white/10 text-white ring-1 ring-white/25 ring-inset hover:bg-white/20',
            )}
          >
            {pending && <Spinner className="size-4" />}
            {formatPhoneNumber(line.phoneNumber)}
            {line.status === 'processing' && (
              <span className="sr-only">{t('home.lines.processing')}</span>
            )}
          </button>
        );
      })}
    </div>
  );
}
