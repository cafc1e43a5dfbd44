import { useId, useMemo, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Download, Eye, PencilLine, Search, X } from 'lucide-react';
import { faroeDateTime } from '@alda/contract/format/date';
import type { AuditEntry } from '@alda/contract/schemas/staff';
import { useErrorText } from '@/shared/error-text';
import { localeOf } from '@/shared/i18n';
import { useServices } from '@/shared/services';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { ListInfo, LoadOlder, QueryList } from '@/shared/ui/query-list';
import { TextField } from '@/shared/ui/text-field';
import { downloadAuditCsv, EMPTY_FILTER, useAudit, type AuditFilter } from './audit-api';

/** The address's names of the filters. */
const PARAMS: Record<keyof AuditFilter, string> = {
  actor: 'actor',
  action: 'action',
  targetId: 'target',
  from: 'from',
  to: 'to',
};

/** Action prefixes offered while typing (the log's verbs are `area.verb`). */
const ACTION_HINTS = [
  'customer.',
  'order.',
  'payment.',
  'number.release',
  'status.',
  'content.',
  'staff.',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** `15.06.2026 14:05:09`: the time of an entry on the Tórshavn clock, to the second. */
export function auditTime(at: string): string {
  const t = faroeDateTime(at);
  return `${pad(t.day)}.${pad(t.month)}.${t.year} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/** The details of an entry on one line: `key: value · key: value`, cut at 160 characters. */
export function compactDetails(details: AuditEntry['details']): string {
  if (!details) return '';
  const text = Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * `/console/audit` (admin): the audit log — every staff read of personal data and every change,
 * newest first; filtered by who, action (prefix), target id and days (Tórshavn time); older
 * entries page by page; refreshed every 5 s; exported as CSV with the same filters. The filters
 * live in the address.
 */
export function AuditScreen() {
  const { t, i18n } = useTranslation('audit');
  const locale = localeOf(i18n);
  const errorText = useErrorText();
  const { session } = useServices();
  const [params, setParams] = useSearchParams();
  const filter: AuditFilter = {
    actor: params.get(PARAMS.actor) ?? '',
    action: params.get(PARAMS.action) ?? '',
    targetId: params.get(PARAMS.targetId) ?? '',
    from: params.get(PARAMS.from) ?? '',
    to: params.get(PARAMS.to) ?? '',
  };
  const [draft, setDraft] = useState<AuditFilter>(filter);
  const [rangeInvalid, setRangeInvalid] = useState(false);
  const hintsId = useId();
  const audit = useAudit(filter);
  const exportCsv = useMutation({
    mutationFn: () => downloadAuditCsv(filter, { session, locale }),
  });

  const apply = (next: AuditFilter) => {
    const search = new URLSearchParams();
    for (const key of Object.keys(PARAMS) as (keyof AuditFilter)[]) {
      const value = next[key].trim();
      if (value) search.set(PARAMS[key], value);
    }
    exportCsv.reset();
    setParams(search, { replace: true });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = draft.from !== '' && draft.to !== '' && draft.from > draft.to;
    setRangeInvalid(invalid);
    if (!invalid) apply(draft);
  };
  const field = (key: keyof AuditFilter) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));

  // Widths that keep every column readable: at 1280 × 800 the table fits; on a tablet it scrolls
  // sideways inside its frame instead of squeezing addresses and ids letter by letter.
  const columns = useMemo<DataColumn<AuditEntry>[]>(
    () => [
      {
        id: 'at',
        header: () => t('columns.at'),
        cell: ({ row }) => {
          const [day, time] = auditTime(row.original.at).split(' ');
          return (
            <time dateTime={row.original.at} className="flex flex-col tabular-nums">
              <span className="whitespace-nowrap">{day}</span>
              <span className="whitespace-nowrap text-mist-600">{time}</span>
            </time>
          );
        },
      },
      {
        id: 'action',
        header: () => t('columns.action'),
        cell: ({ row }) => (
          <span className="flex flex-col items-start gap-1">
            <KindBadge kind={row.original.kind} />
            <span className="text-caption font-semibold text-ocean-900" title={row.original.action}>
              {i18n.exists(`audit:actionNames.${actionKey(row.original.action)}`)
                ? t(`actionNames.${actionKey(row.original.action)}` as 'title')
                : row.original.action}
            </span>
          </span>
        ),
      },
      {
        id: 'actor',
        header: () => t('columns.actor'),
        cell: ({ row }) => <Actor actor={row.original.actor} />,
      },
      {
        id: 'target',
        header: () => t('columns.target'),
        cell: ({ row }) =>
          row.original.targetId ? (
            <span className="flex min-w-28 flex-col">
              {row.original.targetType ? (
                <span className="text-mist-600">{row.original.targetType}</span>
              ) : null}
              <code className="text-[0.75rem] leading-4 break-all">{row.original.targetId}</code>
            </span>
          ) : (
            t('none')
          ),
      },
      {
        id: 'reason',
        header: () => t('columns.reason'),
        cell: ({ row }) => (
          <span className="block min-w-32">{row.original.reason ?? t('none')}</span>
        ),
      },
      {
        id: 'details',
        header: () => t('columns.details'),
        cell: ({ row }) => {
          const text = compactDetails(row.original.details);
          // Three lines at most in the table; the whole text on hover and in the CSV export.
          return text ? (
            <span
              title={text}
              className="line-clamp-3 max-w-72 min-w-40 text-mist-700 [overflow-wrap:anywhere]"
            >
              {text}
            </span>
          ) : (
            t('none')
          );
        },
      },
    ],
    [t, i18n],
  );

  const pages = audit.data?.pages ?? [];
  const items = pages.flatMap((page) => page.items);
  const filtered = Object.values(filter).some(Boolean);

  return (
    <>
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <Button
            variant="secondary"
            icon={<Download aria-hidden="true" className="size-4" />}
            pending={exportCsv.isPending}
            onClick={() => exportCsv.mutate()}
          >
            {exportCsv.isPending ? t('export.pending') : t('export.button')}
          </Button>
        }
      />
      {exportCsv.isSuccess ? (
        <Notice tone="success" className="mb-4">
          {t('export.done')}
        </Notice>
      ) : exportCsv.isError ? (
        <Notice tone="danger" className="mb-4">
          {t('export.failed')} {errorText(exportCsv.error)}
        </Notice>
      ) : null}

      <form
        role="search"
        aria-label={t('filters.label')}
        onSubmit={onSubmit}
        noValidate
        className="mb-5 grid gap-3 rounded-xl border border-mist-200 bg-white p-4 md:grid-cols-2 xl:grid-cols-[repeat(3,minmax(0,1fr))_10rem_10rem]"
      >
        <TextField
          label={t('filters.actor')}
          hint={t('filters.actorHint')}
          value={draft.actor}
          onChange={field('actor')}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t('filters.action')}
          hint={t('filters.actionHint')}
          value={draft.action}
          onChange={field('action')}
          list={hintsId}
          autoComplete="off"
          spellCheck={false}
        />
        <datalist id={hintsId}>
          {ACTION_HINTS.map((hint) => (
            <option key={hint} value={hint} />
          ))}
        </datalist>
        <TextField
          label={t('filters.target')}
          hint={t('filters.targetHint')}
          value={draft.targetId}
          onChange={field('targetId')}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t('filters.from')}
          type="date"
          value={draft.from}
          onChange={field('from')}
          error={rangeInvalid ? t('filters.invalidRange') : null}
        />
        <TextField label={t('filters.to')} type="date" value={draft.to} onChange={field('to')} />
        <div className="flex flex-wrap gap-2 md:col-span-2 xl:col-span-5">
          <Button type="submit" icon={<Search aria-hidden="true" className="size-4" />}>
            {t('filters.submit')}
          </Button>
          {filtered ? (
            <Button
              variant="ghost"
              icon={<X aria-hidden="true" className="size-4" />}
              onClick={() => {
                setDraft(EMPTY_FILTER);
                setRangeInvalid(false);
                apply(EMPTY_FILTER);
              }}
            >
              {t('filters.clear')}
            </Button>
          ) : null}
        </div>
      </form>

      <QueryList
        query={audit}
        texts={{ loading: t('loading'), loadFailed: t('loadFailed'), retry: t('retry') }}
        info={
          <ListInfo updatedAt={audit.dataUpdatedAt}>{t('shown', { count: items.length })}</ListInfo>
        }
      >
        <DataTable
          columns={columns}
          data={items}
          caption={t('caption')}
          getRowId={(row) => row.id}
          empty={filtered ? t('emptyFiltered') : t('empty')}
        />
        <LoadOlder
          query={audit}
          texts={{ more: t('more'), loading: t('loadingMore'), failed: t('moreFailed') }}
        />
      </QueryList>
    </>
  );
}

/** Who: a staff member's e-mail (`staff:<email>`, the prefix left out), else the actor as logged. */
function Actor({ actor }: { actor: string }) {
  const { t } = useTranslation('audit');
  if (actor.startsWith('staff:'))
    return <span className="block min-w-36 break-all">{actor.slice(6)}</span>;
  return (
    <span className="flex min-w-36 flex-col">
      <span className="break-all">{actor}</span>
      <span className="text-mist-600">{t('commandLine')}</span>
    </span>
  );
}

function KindBadge({ kind }: { kind: AuditEntry['kind'] }) {
  const { t } = useTranslation('audit');
  const Icon = kind === 'read' ? Eye : PencilLine;
  return (
    <Badge
      tone={kind === 'read' ? 'info' : 'warning'}
      icon={<Icon aria-hidden="true" className="size-3.5" />}
    >
      {t(`kind.${kind}`)}
    </Badge>
  );
}

/** The key of an action's name in the reader's language (`payment.refund` → `payment_refund`). */
function actionKey(action: string): string {
  return action.replace(/\./g, '_');
}
