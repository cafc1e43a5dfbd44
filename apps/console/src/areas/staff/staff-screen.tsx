import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Fingerprint, KeyRound, Lock, LockOpen, UserCog, UserPlus } from 'lucide-react';
import { formatDate } from '@alda/contract/format/date';
import {
  STAFF_ROLES,
  staffCreateRequest,
  type StaffAccount,
  type StaffEnrolment,
  type StaffMember,
  type StaffRole,
} from '@alda/contract/schemas/staff';
import { cx } from '@/shared/cx';
import { useErrorText } from '@/shared/error-text';
import { useSession } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { LoadFailed } from '@/shared/ui/load-failed';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { ReasonDialog, type ReasonDialogTexts } from '@/shared/ui/reason-dialog';
import { FieldFrame, TextField } from '@/shared/ui/text-field';
import { EnrolmentDialog } from './enrolment-dialog';
import { MemberPasskeysDialog } from './member-passkeys-dialog';
import { RolePolicies } from './role-policies';
import { useCreateStaff, useReenrol, useStaffAccounts, useUpdateStaff } from './staff-api';

/** An action on a staff member's account, asked for with a reason. */
type Action =
  | { kind: 'role'; member: StaffMember }
  | { kind: 'disable'; member: StaffMember }
  | { kind: 'enable'; member: StaffMember }
  | { kind: 'reenrol'; member: StaffMember };

/** The icon of each action's button. */
const ACTION_ICONS = { role: UserCog, disable: Lock, enable: LockOpen, reenrol: KeyRound };

/**
 * `/console/staff` (admin): the staff accounts — name, e-mail, role, active or closed, passkeys,
 * created — with "Add staff member" (the enrolment is then shown once: QR code, secret, first
 * password and recovery codes), a role change, closing and opening an account, a new enrolment
 * for a lost phone, and a member's passkeys to revoke (ADR 0097); each change with a reason for
 * the audit log. Under the list, which roles must sign in with a passkey. The signed-in admin's
 * own account has no actions here: the API refuses an admin locking themselves out, a new
 * enrolment would end the session that shows it, and their own passkeys are under "My passkeys".
 */
export function StaffScreen() {
  const { t } = useTranslation('staff');
  const session = useSession();
  const accounts = useStaffAccounts();
  const update = useUpdateStaff();
  const reenrol = useReenrol();
  const [adding, setAdding] = useState(false);
  const [action, setAction] = useState<Action | null>(null);
  const [enrolment, setEnrolment] = useState<StaffEnrolment | null>(null);
  const [showPasskeys, setShowPasskeys] = useState<StaffMember | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const selfId = session?.staff.id;

  const resetUpdate = update.reset;
  const resetReenrol = reenrol.reset;
  const start = useCallback(
    (next: Action) => {
      resetUpdate();
      resetReenrol();
      setDone(null);
      setAction(next);
    },
    [resetUpdate, resetReenrol],
  );

  const columns = useMemo<DataColumn<StaffAccount>[]>(
    () => [
      {
        id: 'name',
        header: () => t('columns.name'),
        // The name with the e-mail under it: one column, so the actions fit on one line.
        cell: ({ row }) => (
          <span className="flex min-w-36 flex-col">
            <span className="font-semibold text-mist-900">
              {row.original.name}
              {row.original.id === selfId ? (
                <span className="ml-1.5 font-normal text-mist-600">{t('you')}</span>
              ) : null}
            </span>
            <span className="text-mist-700 [overflow-wrap:anywhere]">{row.original.email}</span>
          </span>
        ),
      },
      {
        id: 'role',
        header: () => t('columns.role'),
        cell: ({ row }) => <RoleBadge role={row.original.role} />,
      },
      {
        id: 'state',
        header: () => t('columns.state'),
        cell: ({ row }) =>
          row.original.disabledAt ? (
            <span className="inline-flex items-center gap-1.5 font-semibold text-danger-700">
              <Lock aria-hidden="true" className="size-3.5" />
              {t('state.disabled', { date: formatDate(row.original.disabledAt) })}
            </span>
          ) : (
            <span className="font-semibold text-success-600">{t('state.active')}</span>
          ),
      },
      {
        id: 'passkeys',
        header: () => t('columns.passkeys'),
        cell: ({ row }) => {
          const member = row.original;
          const count = t('passkeys.count', { count: member.passkeys });
          if (member.id === selfId || member.passkeys === 0)
            return <span className="whitespace-nowrap text-mist-700">{count}</span>;
          return (
            <Button
              variant="ghost"
              size="sm"
              icon={<Fingerprint aria-hidden="true" className="size-4" />}
              aria-label={t('passkeys.showFor', { count: member.passkeys, name: member.name })}
              onClick={() => {
                setDone(null);
                setShowPasskeys(member);
              }}
            >
              {count}
            </Button>
          );
        },
      },
      {
        id: 'created',
        header: () => t('columns.created'),
        cell: ({ row }) => formatDate(row.original.createdAt),
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('columns.actions')}</span>,
        cell: ({ row }) => {
          const member = row.original;
          if (member.id === selfId)
            return <span className="text-mist-600">{t('actions.ownAccount')}</span>;
          const kinds: Action['kind'][] = [
            'role',
            member.disabledAt ? 'enable' : 'disable',
            'reenrol',
          ];
          return (
            // Their icons alone on a tablet's narrower table (as the header's "sign out
            // everywhere"); the names are read all the same, and shown on hover.
            <div className="flex justify-end gap-1.5">
              {kinds.map((kind) => {
                const Icon = ACTION_ICONS[kind];
                const label = t(`actions.${kind}For`, { name: member.name });
                return (
                  <Button
                    key={kind}
                    variant={kind === 'reenrol' ? 'ghost' : 'secondary'}
                    size="sm"
                    icon={<Icon aria-hidden="true" className="size-4" />}
                    aria-label={label}
                    title={label}
                    onClick={() => start({ kind, member })}
                  >
                    <span className="sr-only xl:not-sr-only">{t(`actions.${kind}`)}</span>
                  </Button>
                );
              })}
            </div>
          );
        },
      },
    ],
    [t, selfId, start],
  );

  const reasonTexts = (confirm: string, pending: string): ReasonDialogTexts => ({
    label: t('reason.label'),
    hint: t('reason.hint'),
    required: t('reason.required'),
    cancel: t('reason.cancel'),
    confirm,
    pending,
  });

  return (
    <>
      <PageHeader
        title={t('title')}
        lead={t('lead')}
        actions={
          <Button
            icon={<UserPlus aria-hidden="true" className="size-4" />}
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

      {accounts.isPending ? (
        <p role="status" className="py-8 text-center text-body text-mist-600">
          {t('loading')}
        </p>
      ) : accounts.isError && !accounts.data ? (
        <LoadFailed
          title={t('loadFailed')}
          error={accounts.error}
          retry={t('retry')}
          onRetry={() => void accounts.refetch()}
        />
      ) : (
        <DataTable
          columns={columns}
          data={accounts.data.items}
          caption={t('caption')}
          getRowId={(row) => row.id}
          empty={t('empty')}
        />
      )}

      {adding ? (
        <AddStaffDialog
          onClose={() => setAdding(false)}
          onCreated={(created) => {
            setAdding(false);
            setEnrolment(created);
          }}
        />
      ) : null}

      {action?.kind === 'role' ? (
        <RoleDialog
          member={action.member}
          texts={reasonTexts(t('roleDialog.confirm'), t('roleDialog.pending'))}
          pending={update.isPending}
          error={update.error}
          onClose={() => setAction(null)}
          onConfirm={(role, reason) =>
            update.mutate(
              { id: action.member.id, role, reason },
              {
                onSuccess: (member) => {
                  setAction(null);
                  setDone(
                    t('roleDialog.done', {
                      name: member.name,
                      role: t(`roles.${member.role}`, { ns: 'common' }),
                    }),
                  );
                },
              },
            )
          }
        />
      ) : null}

      {action?.kind === 'disable' || action?.kind === 'enable' ? (
        <ReasonDialog
          title={t(`${action.kind}Dialog.title`, { name: action.member.name })}
          lead={t(`${action.kind}Dialog.lead`, { name: action.member.name })}
          tone={action.kind === 'disable' ? 'danger' : 'primary'}
          texts={reasonTexts(t(`${action.kind}Dialog.confirm`), t(`${action.kind}Dialog.pending`))}
          pending={update.isPending}
          error={update.error}
          onClose={() => setAction(null)}
          onConfirm={(reason) =>
            update.mutate(
              { id: action.member.id, disabled: action.kind === 'disable', reason },
              {
                onSuccess: (member) => {
                  setAction(null);
                  setDone(t(`${action.kind}Dialog.done`, { name: member.name }));
                },
              },
            )
          }
        />
      ) : null}

      {action?.kind === 'reenrol' ? (
        <ReasonDialog
          title={t('reenrolDialog.title', { name: action.member.name })}
          lead={t('reenrolDialog.lead', { name: action.member.name })}
          texts={reasonTexts(t('reenrolDialog.confirm'), t('reenrolDialog.pending'))}
          pending={reenrol.isPending}
          error={reenrol.error}
          onClose={() => setAction(null)}
          onConfirm={(reason) =>
            reenrol.mutate(
              { id: action.member.id, reason },
              {
                onSuccess: (fresh) => {
                  setAction(null);
                  reenrol.reset();
                  setEnrolment(fresh);
                },
              },
            )
          }
        />
      ) : null}

      {showPasskeys ? (
        <MemberPasskeysDialog member={showPasskeys} onClose={() => setShowPasskeys(null)} />
      ) : null}

      <RolePolicies />

      {enrolment ? (
        <EnrolmentDialog
          enrolment={enrolment}
          onDone={() => {
            // Never shown again: the secrets leave the page's memory with the dialog.
            const name = enrolment.staff.name;
            setEnrolment(null);
            setDone(t('enrolment.handedOver', { name }));
          }}
        />
      ) : null}
    </>
  );
}

function RoleBadge({ role }: { role: StaffRole }) {
  const { t } = useTranslation('common');
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-caption font-semibold whitespace-nowrap ring-1 ring-inset',
        role === 'admin'
          ? 'bg-puffin-50 text-puffin-700 ring-puffin-300'
          : 'bg-ocean-50 text-ocean-800 ring-ocean-200',
      )}
    >
      {t(`roles.${role}`)}
    </span>
  );
}

/** The role select of the role dialog, above the reason. */
function RoleDialog({
  member,
  texts,
  pending,
  error,
  onClose,
  onConfirm,
}: {
  member: StaffMember;
  texts: ReasonDialogTexts;
  pending: boolean;
  error: unknown;
  onClose: () => void;
  onConfirm: (role: StaffRole, reason: string) => void;
}) {
  const { t } = useTranslation('staff');
  const selectRef = useRef<HTMLSelectElement>(null);
  const [role, setRole] = useState<StaffRole>(member.role);
  const [unchanged, setUnchanged] = useState(false);

  useEffect(() => {
    selectRef.current?.focus();
  }, []);

  return (
    <ReasonDialog
      title={t('roleDialog.title', { name: member.name })}
      lead={t('roleDialog.lead', { name: member.name })}
      texts={texts}
      pending={pending}
      error={error}
      onClose={onClose}
      onConfirm={(reason) => {
        const same = role === member.role;
        setUnchanged(same);
        if (!same) onConfirm(role, reason);
      }}
    >
      <RoleField
        label={t('roleDialog.role')}
        error={unchanged ? t('roleDialog.unchanged') : null}
        selectRef={selectRef}
        value={role}
        onChange={(value) => {
          setUnchanged(false);
          setRole(value);
        }}
      />
    </ReasonDialog>
  );
}

/** A select of the staff roles, with its label and error. */
function RoleField({
  label,
  error = null,
  selectRef,
  value,
  onChange,
}: {
  label: string;
  error?: string | null;
  selectRef?: Ref<HTMLSelectElement>;
  value: StaffRole;
  onChange: (role: StaffRole) => void;
}) {
  const { t } = useTranslation('common');
  return (
    <FieldFrame label={label} error={error}>
      {(control) => (
        <select
          {...control}
          ref={selectRef}
          value={value}
          onChange={(event) => onChange(event.target.value as StaffRole)}
          className="min-h-11 rounded-lg border border-mist-300 bg-white px-3 text-body text-mist-900 hover:border-mist-400"
        >
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

interface AddErrors {
  email?: string;
  name?: string;
}

/** "Add staff member": e-mail, name and role; the answer is the enrolment, shown next. */
function AddStaffDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (enrolment: StaffEnrolment) => void;
}) {
  const { t } = useTranslation('staff');
  const errorText = useErrorText();
  const create = useCreateStaff();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<StaffRole>('support');
  const [errors, setErrors] = useState<AddErrors>({});

  const close = () => {
    if (!create.isPending) onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: AddErrors = {};
    if (!email.trim()) found.email = t('add.invalid.emailRequired');
    if (!name.trim()) found.name = t('add.invalid.nameRequired');
    const parsed = staffCreateRequest.safeParse({ email: email.trim(), name, role });
    if (!parsed.success && !found.email && !found.name) {
      const fields = parsed.error.issues.map((issue) => issue.path[0]);
      if (fields.includes('email')) found.email = t('add.invalid.emailInvalid');
      if (fields.includes('name')) found.name = t('add.invalid.nameRequired');
    }
    setErrors(found);
    if (!parsed.success || found.email || found.name || create.isPending) return;
    create.mutate(parsed.data, { onSuccess: (enrolment) => onCreated(enrolment) });
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
          label={t('add.email')}
          type="email"
          autoComplete="off"
          spellCheck={false}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={errors.email ?? null}
          // The dialog opens to be filled in.
          autoFocus
        />
        <TextField
          label={t('add.name')}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name ?? null}
        />
        <RoleField label={t('add.role')} value={role} onChange={setRole} />
        {create.isPending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('add.pending')}
          </p>
        ) : null}
        {create.isError ? <Notice tone="danger">{errorText(create.error)}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={create.isPending}>
            {t('add.cancel')}
          </Button>
          <Button type="submit" pending={create.isPending}>
            {t('add.submit')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
