import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { PASSKEY_NAME_MAX, passkeyName, type Passkey } from '@alda/contract/schemas/passkeys';
import { EmptyState } from '@/shared/account/screen-states';
import type { Result } from '@/shared/api/http';
import { ROUTES } from '@/shared/config/paths';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { createPasskey } from '@/shared/passkeys/create-passkey';
import {
  deletePasskey,
  passkeyKeys,
  passkeyQueries,
  passkeyRegistrationOptionsOf,
  renamePasskey,
} from '@/shared/passkeys/passkeys-api';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { useStepUp } from '@/shared/step-up/use-step-up';
import { Alert } from '@/shared/ui/alert';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { ErrorState } from '@/shared/ui/error-state';
import { CheckIcon, PencilIcon, TrashIcon, WarningIcon } from '@/shared/ui/icons';
import { PasskeyIcon } from '@/shared/ui/passkey-icon';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { TextField } from '@/shared/ui/text-field';
import { useToast } from '@/shared/ui/toast/toast-context';

/**
 * /min-brukari/lykilkodur (ADR 0097): the customer's passkeys — name, made, last used, synced —
 * each with rename and delete, and "Create a passkey" on this device. Making one and deleting one
 * ask for the password again (a customer without one: an SMS code) in the step-up modal of the
 * signed-in devices (ASVS 5.0 7.5.2); the passkey itself is made in the device's own dialog.
 * Where the browser has no WebAuthn, the screen says so and offers no way to make one.
 */
export function PasskeysScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const modal = useModal();
  const errorMessage = useErrorMessage();
  const stepUp = useStepUp();
  const query = useQuery(passkeyQueries.list(http));
  const [supported] = useState(browserSupportsWebAuthn);
  const [creating, setCreating] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeyKeys.all });

  const create = async () => {
    if (creating) return;
    const options = await stepUp({
      title: t('profile.passkeys.createTitle'),
      message: t('profile.passkeys.createMessage'),
      confirmLabel: t('profile.passkeys.continue'),
      busyLabel: t('profile.passkeys.checking'),
      tone: 'primary',
      icon: (
        <span className="flex size-12 items-center justify-center rounded-full bg-fjord-50 text-fjord-700">
          <PasskeyIcon />
        </span>
      ),
      submit: (proof) => passkeyRegistrationOptionsOf(http, proof),
    });
    if (!options) return;
    if (!options.ok) {
      toast.show({ type: 'error', message: errorMessage(options.error) });
      return;
    }
    setCreating(true);
    const created = await createPasskey(http, options.data.options);
    setCreating(false);
    if (created.status === 'cancelled') return;
    if (created.status === 'failed') {
      const { error } = created;
      toast.show({
        type: 'error',
        message:
          error.code === 'UNKNOWN' ? t('profile.passkeys.createFailed') : errorMessage(error),
      });
      return;
    }
    queryClient.setQueryData<Passkey[]>(passkeyKeys.all, (list) => [
      created.data,
      ...(list ?? []).filter((p) => p.id !== created.data.id),
    ]);
    toast.show({ type: 'info', message: t('profile.passkeys.created') });
    await refresh();
  };

  /** The API's refusal to delete the only way in, as an explanation rather than a toast. */
  const explainLastWayIn = (message: string) =>
    modal.alert({ title: t('profile.passkeys.lastWayInTitle'), message, tone: 'warning' });

  const remove = async (passkey: Passkey, count: number) => {
    // No password, no number for a code and no other passkey: no proof could make it deletable,
    // so the API's answer is said before one is asked for.
    if (user?.hasPassword === false && !user.phoneNumber && count === 1) {
      await explainLastWayIn(errorMessage({ code: 'PASSKEY_LAST_WAY_IN', message: '' }));
      return;
    }
    const result = await stepUp({
      title: t('profile.passkeys.deleteTitle', { name: passkey.name }),
      message: t('profile.passkeys.deleteMessage'),
      confirmLabel: t('profile.passkeys.delete'),
      busyLabel: t('profile.passkeys.deleting'),
      icon: (
        <span className="flex size-12 items-center justify-center rounded-full bg-danger-50 text-danger-600">
          <WarningIcon />
        </span>
      ),
      submit: (proof) => deletePasskey(http, passkey.id, proof),
    });
    if (!result) return;
    if (result.ok) toast.show({ type: 'info', message: t('profile.passkeys.deleted') });
    else if (result.error.code === 'PASSKEY_LAST_WAY_IN')
      await explainLastWayIn(errorMessage(result.error));
    // PASSKEY_NOT_FOUND: deleted meanwhile; the list is refreshed either way.
    else toast.show({ type: 'error', message: errorMessage(result.error) });
    await refresh();
  };

  const rename = async (passkey: Passkey) => {
    let outcome: Result<Passkey> | null = null;
    await modal.custom({
      title: t('profile.passkeys.renameTitle'),
      render: (close) => (
        <RenameForm
          passkey={passkey}
          onDone={(result) => {
            outcome = result;
            close();
          }}
          onCancel={close}
        />
      ),
    });
    const result = outcome as Result<Passkey> | null;
    if (!result) return;
    if (result.ok) {
      queryClient.setQueryData<Passkey[]>(passkeyKeys.all, (list) =>
        list?.map((p) => (p.id === result.data.id ? result.data : p)),
      );
      toast.show({ type: 'info', message: t('profile.passkeys.renamed') });
    } else {
      toast.show({ type: 'error', message: errorMessage(result.error) });
      await refresh();
    }
  };

  const body = () => {
    if (query.isPending)
      return (
        <div className="flex flex-col gap-3" aria-busy="true" aria-label={t('app.loading')}>
          <Skeleton className="h-32 rounded-card" />
          <Skeleton className="h-32 rounded-card" />
        </div>
      );
    if (query.isError)
      return (
        <ErrorState
          message={t('profile.passkeys.loadFailed')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      );
    if (query.data.length === 0)
      return (
        <EmptyState
          icon={<PasskeyIcon />}
          title={t('profile.passkeys.emptyTitle')}
          body={t('profile.passkeys.emptyBody')}
        />
      );
    const count = query.data.length;
    return (
      <>
        <p className="text-body text-mist-600">{t('profile.passkeys.lead')}</p>
        <ul className="flex flex-col gap-3">
          {query.data.map((passkey) => (
            <PasskeyCard
              key={passkey.id}
              passkey={passkey}
              onRename={() => void rename(passkey)}
              onDelete={() => void remove(passkey, count)}
            />
          ))}
        </ul>
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('profile.passkeys.title')} back={ROUTES.profile} />
      <ScreenBody>
        {supported ? (
          <Button
            block
            icon={<PasskeyIcon className="size-5" />}
            loading={creating}
            onClick={() => void create()}
          >
            {creating ? t('profile.passkeys.creating') : t('profile.passkeys.create')}
          </Button>
        ) : (
          <Alert tone="info" title={t('profile.passkeys.unsupportedTitle')}>
            <p>{t('profile.passkeys.unsupportedBody')}</p>
          </Alert>
        )}
        {body()}
      </ScreenBody>
    </main>
  );
}

/** One passkey: its name, synced or not, when it was made and last used; rename and delete. */
function PasskeyCard({
  passkey,
  onRename,
  onDelete,
}: {
  passkey: Passkey;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { dateTime } = useFormatters();
  return (
    <li
      aria-label={passkey.name}
      className="flex flex-col gap-3 rounded-card bg-white p-4 shadow-card"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
          <PasskeyIcon className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-body font-bold break-words text-ocean-950">{passkey.name}</p>
            {passkey.backedUp && (
              <Badge tone="success" icon={<CheckIcon className="size-3.5" />}>
                {t('profile.passkeys.synced')}
              </Badge>
            )}
          </div>
          {passkey.backedUp && (
            <p className="text-caption text-mist-600">{t('profile.passkeys.syncedHint')}</p>
          )}
          <p className="text-caption text-mist-600">
            {t('profile.passkeys.createdAt', { date: dateTime(passkey.createdAt) })}
          </p>
          <p className="text-caption text-mist-600">
            {passkey.lastUsedAt
              ? t('profile.passkeys.lastUsed', { date: dateTime(passkey.lastUsedAt) })
              : t('profile.passkeys.neverUsed')}
          </p>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2">
        <Button
          variant="secondary"
          size="md"
          icon={<PencilIcon className="size-4" />}
          aria-label={t('profile.passkeys.renameNamed', { name: passkey.name })}
          onClick={onRename}
        >
          {t('profile.passkeys.rename')}
        </Button>
        <Button
          variant="secondary"
          size="md"
          icon={<TrashIcon className="size-4" />}
          aria-label={t('profile.passkeys.deleteNamed', { name: passkey.name })}
          onClick={onDelete}
        >
          {t('profile.passkeys.delete')}
        </Button>
      </div>
    </li>
  );
}

/**
 * The rename modal's form: the contract's rule for a name (required, at most
 * {@link PASSKEY_NAME_MAX} characters) as the customer saves, the API's verdict under the field;
 * anything else closes it and goes to `onDone`. An unchanged name closes it without a call.
 */
function RenameForm({
  passkey,
  onDone,
  onCancel,
}: {
  passkey: Passkey;
  onDone: (result: Result<Passkey> | null) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const fieldMessage = useFieldMessage();
  const [value, setValue] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const showError = (key: string | undefined) => {
    setError(fieldMessage(key ?? 'INVALID') ?? null);
    input.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const parsed = passkeyName.safeParse(value);
    if (!parsed.success) return showError(parsed.error.issues[0]?.message);
    if (parsed.data === passkey.name) return onDone(null);
    setError(null);
    setBusy(true);
    const result = await renamePasskey(http, passkey.id, parsed.data);
    setBusy(false);
    if (!result.ok && result.error.code === 'VALIDATION_FAILED')
      return showError(result.error.issues?.[0]?.key);
    onDone(result);
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-5">
      <TextField
        ref={input}
        label={t('profile.passkeys.nameLabel')}
        hint={t('profile.passkeys.nameHint', { max: PASSKEY_NAME_MAX })}
        error={error ?? undefined}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        autoComplete="off"
        autoFocus
      />
      <div className="flex flex-col gap-2">
        <Button type="submit" block loading={busy}>
          {busy ? t('profile.passkeys.saving') : t('profile.passkeys.save')}
        </Button>
        <Button block variant="ghost" disabled={busy} onClick={onCancel}>
          {t('modal.cancel')}
        </Button>
      </div>
    </form>
  );
}
