import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Copy, Lock, Plus } from 'lucide-react';
import { formatDate } from '@alda/contract/format/date';
import {
  staffPartnerCreateRequest,
  type StaffPartner,
  type StaffPartnerCreated,
} from '@alda/contract/schemas/staff-partners';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { QueryList } from '@/shared/ui/query-list';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { TextField } from '@/shared/ui/text-field';
import { useCreatePartner, useDisablePartner, usePartners } from './partners-api';

/**
 * `/console/partners` (admin, issue 32): the partner clients of the CAMARA SIM Swap API — name,
 * client_id, scopes, created, disabled, latest call and number of calls — with "Add partner"
 * (the secret is then shown once, with a copy button) and "Disable" with a reason.
 */
export function PartnersScreen() {
  const { t } = useTranslation('partners');
  const partners = usePartners();
  const disable = useDisablePartner();
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<StaffPartnerCreated | null>(null);
  const [disabling, setDisabling] = useState<StaffPartner | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const columns = useMemo<DataColumn<StaffPartner>[]>(
    () => [
      {
        id: 'name',
        header: () => t('columns.name'),
        cell: ({ row }) => (
          <span className="flex flex-col">
            <span className="font-semibold text-mist-900">{row.original.name}</span>
            <code className="text-mist-700 [overflow-wrap:anywhere]">{row.original.clientId}</code>
          </span>
        ),
      },
      {
        id: 'scopes',
        header: () => t('columns.scopes'),
        cell: ({ row }) => row.original.scopes.join(', '),
      },
      {
        id: 'created',
        header: () => t('columns.created'),
        cell: ({ row }) => formatDate(row.original.createdAt),
      },
      {
        id: 'state',
        header: () => t('columns.state'),
        cell: ({ row }) =>
          row.original.disabledAt ? (
            <span className="font-semibold text-danger-700">
              {t('state.disabled', { date: formatDate(row.original.disabledAt) })}
            </span>
          ) : (
            <span className="font-semibold text-success-600">{t('state.active')}</span>
          ),
      },
      {
        id: 'calls',
        header: () => t('columns.calls'),
        cell: ({ row }) =>
          row.original.lastCallAt
            ? t('calls.some', {
                count: row.original.callCount,
                date: formatDate(row.original.lastCallAt),
              })
            : t('calls.none'),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) =>
          row.original.disabledAt ? null : (
            <Button
              variant="secondary"
              size="sm"
              icon={<Lock aria-hidden="true" className="size-4" />}
              aria-label={t('disable.buttonFor', { name: row.original.name })}
              onClick={() => {
                disable.reset();
                setDone(null);
                setDisabling(row.original);
              }}
            >
              {t('disable.button')}
            </Button>
          ),
      },
    ],
    [t, disable],
  );

  return (
    <>
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <Button
            icon={<Plus aria-hidden="true" className="size-4" />}
            onClick={() => {
              setDone(null);
              setAdding(true);
            }}
          >
            {t('add.button')}
          </Button>
        }
      />
      {done ? (
        <Notice tone="success" className="mb-4">
          {done}
        </Notice>
      ) : null}
      <QueryList
        query={partners}
        texts={{ loading: t('loading'), loadFailed: t('loadFailed'), retry: t('retry') }}
      >
        <DataTable
          columns={columns}
          data={partners.data?.items ?? []}
          caption={t('caption')}
          getRowId={(row) => row.id}
          empty={t('empty')}
        />
      </QueryList>
      {adding ? (
        <AddPartnerDialog
          onClose={() => setAdding(false)}
          onCreated={(answer) => {
            setAdding(false);
            setCreated(answer);
          }}
        />
      ) : null}
      {created ? (
        <SecretDialog
          created={created}
          onDone={() => {
            // Never shown again: the secret leaves the page's memory with the dialog.
            const name = created.partner.name;
            setCreated(null);
            setDone(t('secret.handedOver', { name }));
          }}
        />
      ) : null}
      {disabling ? (
        <ReasonDialog
          title={t('disable.title', { name: disabling.name })}
          lead={t('disable.lead', { name: disabling.name })}
          tone="danger"
          texts={{
            label: t('reason.label'),
            hint: t('reason.hint'),
            required: t('reason.required'),
            cancel: t('reason.cancel'),
            confirm: t('disable.confirm'),
            pending: t('disable.pending'),
          }}
          pending={disable.isPending}
          error={disable.error}
          onClose={() => setDisabling(null)}
          onConfirm={(reason) =>
            disable.mutate(
              { clientId: disabling.clientId, reason },
              {
                onSuccess: (partner) => {
                  setDisabling(null);
                  setDone(t('disable.done', { name: partner.name }));
                },
              },
            )
          }
        />
      ) : null}
    </>
  );
}

/** "Add partner": a name; the scope is `sim-swap` (both SIM Swap operations). */
function AddPartnerDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (created: StaffPartnerCreated) => void;
}) {
  const { t } = useTranslation('partners');
  const errorText = useErrorText();
  const create = useCreatePartner();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = staffPartnerCreateRequest.safeParse({ name, scopes: ['sim-swap'] });
    setError(parsed.success ? null : t('add.nameRequired'));
    if (!parsed.success || create.isPending) return;
    create.mutate(parsed.data, { onSuccess: onCreated });
  };

  return (
    <ModalDialog
      title={t('add.title')}
      lead={t('add.lead')}
      pending={create.isPending}
      onClose={onClose}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('add.name')}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error}
          autoFocus
        />
        {create.isError ? <Notice tone="danger">{errorText(create.error)}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" type="button" disabled={create.isPending} onClick={onClose}>
            {t('add.cancel')}
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t('add.pending') : t('add.confirm')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}

/** The new client's id and secret, shown this once. */
function SecretDialog({ created, onDone }: { created: StaffPartnerCreated; onDone: () => void }) {
  const { t } = useTranslation('partners');
  const [copied, setCopied] = useState(false);
  return (
    <ModalDialog title={t('secret.title', { name: created.partner.name })} onClose={onDone}>
      <div className="flex flex-col gap-4">
        <Notice tone="danger">{t('secret.once')}</Notice>
        <dl className="grid gap-2 text-body">
          <dt className="font-semibold">{t('secret.clientId')}</dt>
          <dd>
            <code className="[overflow-wrap:anywhere]">{created.partner.clientId}</code>
          </dd>
          <dt className="font-semibold">{t('secret.clientSecret')}</dt>
          <dd>
            <code className="[overflow-wrap:anywhere]">{created.clientSecret}</code>
          </dd>
        </dl>
        <div className="flex flex-wrap items-center justify-end gap-2">
          {copied ? (
            <span role="status" className="text-caption text-success-600">
              {t('secret.copied')}
            </span>
          ) : null}
          <Button
            variant="secondary"
            icon={<Copy aria-hidden="true" className="size-4" />}
            onClick={() =>
              void navigator.clipboard
                ?.writeText(created.clientSecret)
                .then(() => setCopied(true))
                .catch(() => setCopied(false))
            }
          >
            {t('secret.copy')}
          </Button>
          <Button onClick={onDone}>{t('secret.done')}</Button>
        </div>
      </div>
    </ModalDialog>
  );
}
