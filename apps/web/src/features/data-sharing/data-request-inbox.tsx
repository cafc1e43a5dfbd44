import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import { DATA_REQUEST_FOLLOW_UP_DELAY_MS } from '@alda/contract/constants';
import { formatData } from '@alda/contract/format/data';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { DataTransfer } from '@alda/contract/schemas/data-transfers';
import type { HttpClient } from '@/shared/api/http';
import { accountKeys } from '@/shared/api/account-data';
import { currentLocale } from '@/shared/i18n/i18n';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { useModal } from '@/shared/ui/modal/modal-context';
import type { ModalStore } from '@/shared/ui/modal/modal-store';
import { useToast } from '@/shared/ui/toast/toast-context';
import type { ToastStore } from '@/shared/ui/toast/toast-store';
import { dataTransfersApi } from './data-transfers-api';

/** Polls the pending requests and shows them one by one in the data-request-received modal. */
export interface DataRequestInbox {
  /** One poll: GET /data-transfers (If-None-Match), new requests join the queue. */
  poll(): Promise<void>;
  /** Queues requests not seen yet; opens the modal for the first one if none is open. */
  offer(requests: readonly DataTransfer[]): void;
  /** Forgets everything (logout): queue, seen requests, ETag. */
  reset(): void;
}

export interface InboxDeps {
  http: HttpClient;
  modal: ModalStore;
  /** Renders the body of the modal for one request; `close` when it is handled. */
  render: (request: DataTransfer, close: () => void) => React.ReactNode;
  title: () => string;
  followUpDelayMs?: number;
}

/**
 * SPEC §4 "Data request" and "Polling": the modal opens for the first pending request; with
 * several queued, the next opens DATA_REQUEST_FOLLOW_UP_DELAY_MS (about 300 ms) after the
 * previous one is handled. A request is shown once per session: closing the modal without an
 * answer leaves it pending on the server, and it shows again after the next login.
 */
export function createDataRequestInbox({
  http,
  modal,
  render,
  title,
  followUpDelayMs = DATA_REQUEST_FOLLOW_UP_DELAY_MS,
}: InboxDeps): DataRequestInbox {
  let queue: DataTransfer[] = [];
  const seen = new Set<string>();
  let busy = false;
  let etag: string | null = null;
  let generation = 0;

  function showNext() {
    const next = queue.shift();
    if (!next) {
      busy = false;
      return;
    }
    busy = true;
    const mine = generation;
    void modal.custom({ title: title(), render: (close) => render(next, close) }).then(() => {
      setTimeout(() => {
        if (mine === generation) showNext();
      }, followUpDelayMs);
    });
  }

  const inbox: DataRequestInbox = {
    async poll() {
      const mine = generation;
      const result = await dataTransfersApi.pending(http, etag);
      if (mine !== generation || !result.ok) return;
      if (!result.data.changed) return;
      etag = result.data.etag;
      inbox.offer(result.data.data.filter((r) => r.kind === 'request' && r.status === 'pending'));
    },
    offer(requests) {
      for (const request of requests) {
        if (seen.has(request.id)) continue;
        seen.add(request.id);
        queue.push(request);
      }
      if (!busy) showNext();
    },
    reset() {
      generation += 1;
      queue = [];
      seen.clear();
      busy = false;
      etag = null;
    },
  };
  return inbox;
}

/** The app's inbox, bound to the services, the modal and the toasts of the React tree. */
export function useDataRequestInbox(): DataRequestInbox {
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  // The i18n instance is stable: switching language does not reset the queue.
  const i18n = useI18n();
  const queryClient = useQueryClient();
  return useMemo(
    () =>
      createDataRequestInbox({
        http,
        modal,
        title: () => i18n.t('dataSharing.received.title'),
        render: (request, close) => (
          <DataRequestReceived
            request={request}
            http={http}
            toast={toast}
            onHandled={() => {
              void queryClient.invalidateQueries({ queryKey: accountKeys.all });
              close();
            }}
            onClose={close}
          />
        ),
      }),
    [http, modal, toast, i18n, queryClient],
  );
}

/** Body of the data-request-received modal: who asks for how much; give or decline. */
export function DataRequestReceived({
  request,
  http,
  toast,
  onHandled,
  onClose,
}: {
  request: DataTransfer;
  http: HttpClient;
  toast: ToastStore;
  onHandled: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const i18n = useI18n();
  const [pending, setPending] = useState<'approve' | 'decline' | null>(null);
  const amount = formatData(request.dataAmount, currentLocale(i18n));
  const who = request.requester.name ?? request.requester.phoneNumber;

  async function answer(kind: 'approve' | 'decline') {
    // SPEC §4: a request without an id cannot be answered; close with an error.
    if (!request.id) {
      toast.show({ type: 'error', message: t('dataSharing.received.missing') });
      onClose();
      return;
    }
    setPending(kind);
    const result =
      kind === 'approve'
        ? await dataTransfersApi.approve(http, request.id)
        : await dataTransfersApi.decline(http, request.id);
    setPending(null);
    if (!result.ok) {
      if (result.error.status === 404) {
        // Withdrawn or answered elsewhere meanwhile: nothing left to answer here.
        toast.show({ type: 'error', message: t('dataSharing.received.missing') });
        onClose();
        return;
      }
      // SPEC §8: approve or delete fails → 'An error occurred.'; the request stays open.
      toast.show({ type: 'error', message: t('dataSharing.received.failed') });
      return;
    }
    toast.show({
      type: 'info',
      message:
        kind === 'approve'
          ? t('dataSharing.received.approved', { amount, who })
          : t('dataSharing.received.declined'),
    });
    onHandled();
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-body text-ocean-900">{t('dataSharing.received.body', { who, amount })}</p>
      {request.requester.name && (
        <p className="text-caption text-mist-600">
          {t('dataSharing.received.number', {
            number: formatPhoneNumber(request.requester.phoneNumber),
          })}
        </p>
      )}
      <div className="flex flex-col gap-2">
        <Button
          block
          loading={pending === 'approve'}
          disabled={pending !== null}
          onClick={() => void answer('approve')}
        >
          {t('dataSharing.received.approve', { amount })}
        </Button>
        <Button
          block
          variant="secondary"
          loading={pending === 'decline'}
          disabled={pending !== null}
          onClick={() => void answer('decline')}
        >
          {t('dataSharing.received.decline')}
        </Button>
      </div>
    </div>
  );
}
