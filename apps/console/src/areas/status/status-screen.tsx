import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BellRing, CircleStop } from 'lucide-react';
import { formatDateTime } from '@alda/contract/format/date';
import {
  STATUS_MESSAGE_STATES,
  type StaffStatusMessage,
  type StatusMessageState,
} from '@alda/contract/schemas/staff-status';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { QueryList } from '@/shared/ui/query-list';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { UpdatedAt } from '@/shared/ui/updated-at';
import { ComposeForm } from './compose-form';
import { useEndStatus, useStatusMessages } from './status-api';

/*
 * `/console/status` (issue 31 "Status messages: compose fo + en with a live preview as the app
 * shows it, schedule, end"): the compose form with the app's preview, and every message with its
 * state — scheduled, shown now, ended — refreshed every 5 s; "End now" asks for a reason. An
 * urgent message (issue 64: also pushed to customers' phones) carries a badge saying so.
 */

const TONES: Record<StatusMessageState, BadgeTone> = {
  scheduled: 'info',
  active: 'success',
  ended: 'neutral',
};

type Filter = StatusMessageState | 'all';

export function StatusScreen() {
  const { t } = useTranslation('status');
  const messages = useStatusMessages();
  const end = useEndStatus();
  const [filter, setFilter] = useState<Filter>('all');
  const [ending, setEnding] = useState<StaffStatusMessage | null>(null);
  const [ended, setEnded] = useState<StaffStatusMessage | null>(null);

  const openEnd = useCallback(
    (message: StaffStatusMessage) => {
      end.reset();
      setEnded(null);
      setEnding(message);
    },
    [end, setEnded, setEnding],
  );

  const columns = useMemo<DataColumn<StaffStatusMessage>[]>(
    () => [
      {
        id: 'message',
        header: () => t('list.columns.message'),
        cell: ({ row }) => (
          <div className="flex max-w-md flex-col gap-0.5">
            <span lang="fo" className="font-semibold text-mist-900">
              {row.original.titleFo}
            </span>
            <span lang="en" className="text-mist-600">
              {row.original.titleEn}
            </span>
          </div>
        ),
      },
      {
        id: 'state',
        header: () => t('list.columns.state'),
        cell: ({ row }) => (
          <div className="flex flex-wrap gap-1.5">
            <Badge tone={TONES[row.original.state]}>{t(`state.${row.original.state}`)}</Badge>
            {row.original.urgent ? (
              <Badge tone="warning" icon={<BellRing aria-hidden="true" className="size-3.5" />}>
                {t('list.urgent')}
              </Badge>
            ) : null}
          </div>
        ),
      },
      {
        id: 'from',
        header: () => t('list.columns.from'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap">
            {row.original.activeFrom ? formatDateTime(row.original.activeFrom) : t('list.always')}
          </span>
        ),
      },
      {
        id: 'to',
        header: () => t('list.columns.to'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap">
            {row.original.activeTo ? formatDateTime(row.original.activeTo) : t('list.untilEnded')}
          </span>
        ),
      },
      {
        id: 'created',
        header: () => t('list.columns.created'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap text-mist-700">
            {formatDateTime(row.original.createdAt)}
          </span>
        ),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('list.columns.actions')}</span>,
        cell: ({ row }) =>
          row.original.state === 'ended' ? null : (
            <div className="flex justify-end">
              <Button
                variant="secondary"
                size="sm"
                icon={<CircleStop aria-hidden="true" className="size-4" />}
                aria-label={t('end.buttonFor', { title: row.original.titleFo })}
                onClick={() => openEnd(row.original)}
              >
                {t('end.button')}
              </Button>
            </div>
          ),
      },
    ],
    [t, openEnd],
  );

  const items = messages.data?.items ?? [];
  const counts = Object.fromEntries(
    STATUS_MESSAGE_STATES.map((state) => [state, items.filter((m) => m.state === state).length]),
  ) as Record<StatusMessageState, number>;
  const shown = filter === 'all' ? items : items.filter((m) => m.state === filter);

  return (
    <>
      <PageHeader title={t('title')} lead={t('lead')} />

      <section aria-labelledby="status-compose-heading" className="mb-10">
        <h2 id="status-compose-heading" className="mb-4 text-heading font-bold text-ocean-950">
          {t('compose.heading')}
        </h2>
        <ComposeForm />
      </section>

      <section aria-labelledby="status-list-heading">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <h2 id="status-list-heading" className="text-heading font-bold text-ocean-950">
            {t('list.heading')}
          </h2>
          <div role="group" aria-label={t('list.filter')} className="flex flex-wrap gap-1">
            {(['all', ...STATUS_MESSAGE_STATES] as const).map((state) => (
              <button
                key={state}
                type="button"
                aria-pressed={filter === state}
                onClick={() => setFilter(state)}
                className={
                  filter === state
                    ? 'min-h-9 rounded-full bg-ocean-800 px-3.5 text-caption font-semibold text-white'
                    : 'min-h-9 rounded-full border border-mist-300 bg-white px-3.5 text-caption font-semibold text-mist-700 hover:border-ocean-300 hover:text-ocean-900'
                }
              >
                {state === 'all'
                  ? t('list.all', { count: items.length })
                  : t(`list.filters.${state}`, { count: counts[state] })}
              </button>
            ))}
          </div>
        </div>

        {ended ? (
          <Notice tone="success" className="mb-3">
            {t('end.done', { title: ended.titleFo })}
          </Notice>
        ) : null}

        <QueryList
          query={messages}
          texts={{
            loading: t('list.loading'),
            loadFailed: t('list.loadFailed'),
            retry: t('list.retry'),
          }}
          info={
            <UpdatedAt
              at={messages.dataUpdatedAt}
              className="mb-2 text-right text-caption text-mist-600"
            />
          }
        >
          <DataTable
            columns={columns}
            data={shown}
            caption={t('list.caption')}
            getRowId={(row) => row.id}
            empty={items.length === 0 ? t('list.empty') : t('list.emptyFilter')}
          />
        </QueryList>
      </section>

      {ending ? (
        <ReasonDialog
          title={t('end.title')}
          lead={t('end.lead', { title: ending.titleFo })}
          tone="danger"
          texts={{
            label: t('end.reason'),
            hint: t('end.reasonHint'),
            required: t('end.reasonRequired'),
            cancel: t('end.cancel'),
            confirm: t('end.confirm'),
            pending: t('end.pending'),
          }}
          pending={end.isPending}
          error={end.error}
          onClose={() => setEnding(null)}
          onConfirm={(reason) =>
            end.mutate(
              { id: ending.id, reason },
              {
                onSuccess: (message) => {
                  setEnding(null);
                  setEnded(message);
                },
              },
            )
          }
        />
      ) : null}
    </>
  );
}
