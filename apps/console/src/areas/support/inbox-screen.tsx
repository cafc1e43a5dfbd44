import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  SUPPORT_QUEUES,
  type StaffSupportSummary,
  type SupportQueue,
} from '@alda/contract/schemas/staff-support';
import { cx } from '@/shared/cx';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { PageHeader } from '@/shared/ui/page-header';
import { ListInfo, QueryList } from '@/shared/ui/query-list';
import { formatDateTime } from './format';
import { AgeText, LateBadge, useCustomerLabel, useSubjectText } from './parts';
import { useSupportQueue } from './support-api';
import { SupportHelp } from './support-help';

/*
 * `/console/support` (issue 46 "An inbox in queues: new, mine, waiting on the customer, closed.
 * Each shows the age and the first-reply due time, and late ones stand out"). The queue lives in
 * the address (`?queue=`), so going back from a conversation finds the same one; the list asks
 * again every 10 s while the tab is shown — how a new conversation reaches the desk.
 */

const isQueue = (value: string | null): value is SupportQueue =>
  (SUPPORT_QUEUES as readonly (string | null)[]).includes(value);

export function InboxScreen() {
  const { t } = useTranslation('support');
  const [params] = useSearchParams();
  const param = params.get('queue');
  const queue: SupportQueue = isQueue(param) ? param : 'new';
  const conversations = useSupportQueue(queue);
  const subjectText = useSubjectText();
  const customerLabel = useCustomerLabel();
  // Ages are counted from when the list last came (it comes every 10 s).
  const now = conversations.dataUpdatedAt;

  const columns = useMemo<DataColumn<StaffSupportSummary>[]>(
    () => [
      {
        id: 'conversation',
        header: () => t('inbox.columns.conversation'),
        cell: ({ row }) => (
          <div className="flex min-w-44 flex-col gap-0.5">
            <Link
              to={row.original.id}
              state={{ queue }}
              className={cx(
                'font-semibold text-ocean-800 underline-offset-2 hover:text-ocean-950 hover:underline',
                row.original.customerName === null && 'italic',
              )}
            >
              {customerLabel(row.original.customerName)}
            </Link>
            <span className="text-mist-700">{subjectText(row.original.subject)}</span>
          </div>
        ),
      },
      {
        id: 'last',
        header: () => t('inbox.columns.lastMessage'),
        cell: ({ row }) => (
          // Text only: React writes it as text, whatever the customer typed.
          <p className="line-clamp-2 max-w-md break-words text-mist-700">
            {row.original.lastMessage}
          </p>
        ),
      },
      {
        id: 'age',
        header: () => t('inbox.columns.age'),
        cell: ({ row }) => <AgeText since={row.original.createdAt} now={now} />,
      },
      {
        id: 'due',
        header: () => t('inbox.columns.due'),
        cell: ({ row }) => <DueCell row={row.original} />,
      },
      {
        id: 'assignee',
        header: () => t('inbox.columns.assignee'),
        cell: ({ row }) =>
          row.original.assignee ? (
            <span className="whitespace-nowrap">{row.original.assignee.name}</span>
          ) : (
            <span className="text-mist-600">{t('inbox.unassigned')}</span>
          ),
      },
    ],
    [t, now, queue, subjectText, customerLabel],
  );

  const items = conversations.data?.items ?? [];
  const late = items.filter((item) => item.late).length;

  return (
    <>
      <PageHeader title={t('inbox.title')} lead={t('inbox.lead')} />
      <SupportHelp topic="inbox" />
      <nav aria-label={t('inbox.queuesLabel')} className="mb-4">
        <ul className="flex flex-wrap gap-2">
          {SUPPORT_QUEUES.map((entry) => (
            <li key={entry}>
              <Link
                to={{ search: entry === 'new' ? '' : `?queue=${entry}` }}
                replace
                aria-current={entry === queue ? 'page' : undefined}
                className={cx(
                  'inline-flex min-h-9 items-center rounded-full border px-3.5 text-caption font-semibold transition-colors',
                  entry === queue
                    ? 'border-ocean-700 bg-ocean-700 text-white'
                    : 'border-mist-300 bg-white text-ocean-900 hover:border-ocean-300 hover:bg-ocean-50',
                )}
              >
                {t(`queue.${entry}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <QueryList
        query={conversations}
        texts={{
          loading: t('inbox.loading'),
          loadFailed: t('inbox.loadFailed'),
          retry: t('inbox.retry'),
        }}
        info={
          <ListInfo updatedAt={conversations.dataUpdatedAt}>
            {t('inbox.found', { count: items.length })}
            {late > 0 ? ` · ${t('inbox.lateCount', { count: late })}` : null}
          </ListInfo>
        }
      >
        <DataTable
          columns={columns}
          data={items}
          caption={t('inbox.caption', { queue: t(`queue.${queue}`) })}
          getRowId={(row) => row.id}
          empty={t(`inbox.empty.${queue}`)}
        />
      </QueryList>
    </>
  );
}

/** When the first answer is due (Tórshavn time) and, past it unanswered, "Late"; or when it came. */
function DueCell({ row }: { row: StaffSupportSummary }) {
  const { t } = useTranslation('support');
  if (row.firstReplyAt)
    return (
      <span className="whitespace-nowrap text-mist-700">
        {t('inbox.answeredAt', { time: formatDateTime(row.firstReplyAt) })}
      </span>
    );
  return (
    <span className="flex flex-col items-start gap-1">
      <time dateTime={row.firstReplyDueAt} className="whitespace-nowrap tabular-nums">
        {formatDateTime(row.firstReplyDueAt)}
      </time>
      {row.late ? <LateBadge /> : null}
    </span>
  );
}
