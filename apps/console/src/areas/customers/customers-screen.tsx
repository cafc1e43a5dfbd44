import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { FolderOpen } from 'lucide-react';
import type { StaffCustomerHit } from '@alda/contract/schemas/staff-customers';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { TextField } from '@/shared/ui/text-field';
import { MIN_QUERY_LENGTH, useCustomerSearch, useOpenCustomer } from './customers-api';
import { formatPhoneNumber } from './format';
import { reasonTexts } from './reason-texts';

/** How long typing rests before the search runs (each search is recorded in the audit log). */
export const SEARCH_DEBOUNCE_MS = 400;

/**
 * `/console/customers`: find a customer by number, e-mail, name, ICCID or order id. The search
 * runs once typing rests (or at Enter) and lives in the address (`?q=`), so going back from a
 * customer finds the same list. Opening a customer asks for a reason first (a dialog); the view
 * shows once it is recorded.
 */
export function CustomersScreen() {
  const { t } = useTranslation('customers');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const [opening, setOpening] = useState<StaffCustomerHit | null>(null);
  const search = useCustomerSearch(q);
  const open = useOpenCustomer();
  const { reset } = open;
  /** Opens the reason dialog for a customer found (a failure of an earlier try is forgotten). */
  const choose = useCallback(
    (hit: StaffCustomerHit) => {
      reset();
      setOpening(hit);
    },
    [reset],
  );

  // The search follows the field once typing rests.
  useEffect(() => {
    const wanted = draft.trim();
    if (wanted === q) return;
    const timer = setTimeout(
      () => setParams(wanted ? { q: wanted } : {}, { replace: true }),
      SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [draft, q, setParams]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = draft.trim();
    setParams(wanted ? { q: wanted } : {}, { replace: true });
  };

  const columns = useMemo<DataColumn<StaffCustomerHit>[]>(
    () => [
      {
        id: 'name',
        header: () => t('search.columns.name'),
        cell: ({ row }) => (
          <button
            type="button"
            onClick={() => choose(row.original)}
            className="text-left font-semibold text-ocean-700 underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
          >
            {row.original.name}
          </button>
        ),
      },
      {
        id: 'email',
        header: () => t('search.columns.email'),
        cell: ({ row }) => row.original.email,
      },
      {
        id: 'numbers',
        header: () => t('search.columns.numbers'),
        cell: ({ row }) =>
          row.original.numbers.length > 0 ? (
            <span className="tabular-nums">
              {row.original.numbers.map(formatPhoneNumber).join(', ')}
            </span>
          ) : (
            <span className="text-mist-600">{t('search.noNumbers')}</span>
          ),
      },
      {
        id: 'matched',
        header: () => t('search.columns.matched'),
        cell: ({ row }) => (
          <Badge tone="info">{t(`search.matched.${row.original.matchedOn}`)}</Badge>
        ),
      },
      {
        id: 'open',
        header: () => <span className="sr-only">{t('search.columns.open')}</span>,
        cell: ({ row }) => (
          <Button
            variant="secondary"
            size="sm"
            icon={<FolderOpen aria-hidden="true" className="size-4" />}
            aria-label={t('search.openNamed', { name: row.original.name })}
            onClick={() => choose(row.original)}
          >
            {t('search.open')}
          </Button>
        ),
      },
    ],
    [t, choose],
  );

  const short = q.length < MIN_QUERY_LENGTH;
  const items = search.data?.items ?? [];

  return (
    <>
      <PageHeader title={t('search.title')} lead={t('search.lead')} />
      <form
        role="search"
        aria-label={t('search.label')}
        onSubmit={onSubmit}
        className="mb-5 rounded-xl border border-mist-200 bg-white p-4"
      >
        <TextField
          label={t('search.field')}
          hint={t('search.hint')}
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
        />
      </form>

      {short ? (
        <p className="py-6 text-center text-body text-mist-600">{t('search.start')}</p>
      ) : search.isPending ? (
        <p role="status" className="py-6 text-center text-body text-mist-600">
          {t('search.searching')}
        </p>
      ) : search.isError && !search.data ? (
        <LoadFailed
          title={t('search.failed')}
          error={search.error}
          retry={t('search.retry')}
          onRetry={() => void search.refetch()}
        />
      ) : (
        <>
          <p role="status" className="mb-2 text-caption text-mist-600">
            {search.isFetching ? t('search.searching') : t('search.found', { count: items.length })}
          </p>
          {search.data?.truncated ? (
            <Notice className="mb-3">{t('search.truncated', { count: items.length })}</Notice>
          ) : null}
          <DataTable
            columns={columns}
            data={items}
            caption={t('search.caption', { q })}
            getRowId={(row) => row.id}
            empty={t('search.empty')}
          />
        </>
      )}

      {opening ? (
        <ReasonDialog
          title={t('open.title', { name: opening.name })}
          lead={t('open.lead')}
          texts={reasonTexts(t, t('open.confirm'), t('open.pending'))}
          pending={open.isPending}
          error={open.error}
          onClose={() => setOpening(null)}
          onConfirm={(reason) =>
            open.mutate({ id: opening.id, reason }, { onSuccess: () => void navigate(opening.id) })
          }
        />
      ) : null}
    </>
  );
}
