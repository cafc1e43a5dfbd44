import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Fingerprint, Plus, Trash2 } from 'lucide-react';
import { formatDate, formatDateTime } from '@alda/contract/format/date';
import type { Passkey } from '@alda/contract/schemas/passkeys';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { passkeyProblem } from '@/shared/passkeys';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { QueryList } from '@/shared/ui/query-list';
import { TextField } from '@/shared/ui/text-field';
import { useAddPasskey, useDeletePasskey, useMyPasskeys } from './passkeys-api';

/**
 * `/console/my-passkeys`, for every role (ADR 0097): the signed-in member's passkeys — name,
 * created, last used — with "Add a passkey" (the password again, then the browser's prompt) and
 * delete. A passkey signs in instead of the authenticator app's code; an admin may require one of
 * a role.
 */
export function MyPasskeysScreen() {
  const { t } = useTranslation('account');
  const passkeys = useMyPasskeys();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const columns = useMemo<DataColumn<Passkey>[]>(
    () => [
      {
        id: 'name',
        header: () => t('columns.name'),
        cell: ({ row }) => (
          <span className="flex min-w-36 flex-col">
            <span className="font-semibold text-mist-900 [overflow-wrap:anywhere]">
              {row.original.name}
            </span>
            {row.original.backedUp ? (
              <span className="text-caption text-mist-600">{t('synced')}</span>
            ) : null}
          </span>
        ),
      },
      {
        id: 'created',
        header: () => t('columns.created'),
        cell: ({ row }) => formatDate(row.original.createdAt),
      },
      {
        id: 'lastUsed',
        header: () => t('columns.lastUsed'),
        cell: ({ row }) =>
          row.original.lastUsedAt ? formatDateTime(row.original.lastUsedAt) : t('neverUsed'),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => (
          <div className="flex justify-end">
            <Button
              variant="secondary"
              size="sm"
              icon={<Trash2 aria-hidden="true" className="size-4" />}
              aria-label={t('delete.buttonFor', { name: row.original.name })}
              onClick={() => {
                setDone(null);
                setDeleting(row.original);
              }}
            >
              {t('delete.button')}
            </Button>
          </div>
        ),
      },
    ],
    [t],
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
        query={passkeys}
        texts={{ loading: t('loading'), loadFailed: t('loadFailed'), retry: t('retry') }}
      >
        <DataTable
          columns={columns}
          data={passkeys.data?.items ?? []}
          caption={t('caption')}
          getRowId={(row) => row.id}
          empty={
            <span className="flex flex-col items-center gap-2 py-4 text-center">
              <Fingerprint aria-hidden="true" className="size-6 text-mist-500" />
              {t('empty')}
            </span>
          }
        />
      </QueryList>

      {adding ? (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={(added) => {
            setAdding(false);
            setDone(t('add.done', { name: added.name }));
          }}
        />
      ) : null}

      {deleting ? (
        <DeletePasskeyDialog
          passkey={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            setDone(t('delete.done', { name: deleting.name }));
          }}
        />
      ) : null}
    </>
  );
}

/** "Add a passkey": an optional name and the password; then the browser asks for the passkey. */
function AddPasskeyDialog({
  onClose,
  onAdded,
}: {
  onClose: () => void;
  onAdded: (added: Passkey) => void;
}) {
  const { t } = useTranslation('account');
  const errorText = useErrorText();
  const add = useAddPasskey();
  const passwordRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);

  // A wrong password is the password field's error, and the place to type it again.
  const wrongPassword = isApiError(add.error, 'PASSWORD_INCORRECT');
  useEffect(() => {
    if (wrongPassword) passwordRef.current?.focus();
  }, [wrongPassword]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!password) {
      setMissing(true);
      passwordRef.current?.focus();
      return;
    }
    setMissing(false);
    add.mutate({ password, name }, { onSuccess: onAdded, onError: () => setPassword('') });
  };

  const problem = passkeyProblem(add.error);
  const failure =
    add.isError && !wrongPassword
      ? problem
        ? t(`problem.${problem}`)
        : errorText(add.error)
      : null;

  return (
    <ModalDialog
      title={t('add.title')}
      lead={t('add.lead')}
      pending={add.isPending}
      onClose={onClose}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label={t('add.name')}
          hint={t('add.nameHint')}
          autoComplete="off"
          maxLength={60}
          value={name}
          onChange={(event) => setName(event.target.value)}
          // The dialog opens to be filled in.
          autoFocus
        />
        <TextField
          ref={passwordRef}
          label={t('add.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={missing ? t('add.passwordRequired') : wrongPassword ? errorText(add.error) : null}
          required
        />
        {add.isPending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('add.pending')}
          </p>
        ) : null}
        {failure ? <Notice tone="danger">{failure}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
            {t('add.cancel')}
          </Button>
          <Button
            type="submit"
            pending={add.isPending}
            icon={<Fingerprint aria-hidden="true" className="size-4" />}
          >
            {t('add.submit')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}

/** Deleting one of one's passkeys, confirmed. */
function DeletePasskeyDialog({
  passkey,
  onClose,
  onDeleted,
}: {
  passkey: Passkey;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('account');
  const errorText = useErrorText();
  const remove = useDeletePasskey();
  const failure = remove.isError
    ? isApiError(remove.error, 'STAFF_ACTION_NOT_ALLOWED')
      ? t('delete.last')
      : errorText(remove.error)
    : null;
  return (
    <ModalDialog
      title={t('delete.title', { name: passkey.name })}
      lead={t('delete.lead')}
      pending={remove.isPending}
      onClose={onClose}
    >
      <div className="flex flex-col gap-4">
        {failure ? <Notice tone="danger">{failure}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={remove.isPending} autoFocus>
            {t('delete.cancel')}
          </Button>
          <Button
            variant="danger"
            pending={remove.isPending}
            icon={<Trash2 aria-hidden="true" className="size-4" />}
            onClick={() => remove.mutate(passkey.id, { onSuccess: onDeleted })}
          >
            {t('delete.confirm')}
          </Button>
        </div>
      </div>
    </ModalDialog>
  );
}
