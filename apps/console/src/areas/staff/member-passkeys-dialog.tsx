import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { KeyRound } from 'lucide-react';
import { formatDate, formatDateTime } from '@alda/contract/format/date';
import type { Passkey } from '@alda/contract/schemas/passkeys';
import type { StaffMember } from '@alda/contract/schemas/staff';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { ReasonForm } from '@/shared/ui/reason-dialog';
import { useMemberPasskeys, useRevokePasskey } from './staff-api';

/**
 * Another staff member's passkeys (admin, ADR 0097): name, created, last used, and "Revoke" for
 * a lost or stolen device — with a reason for the audit log; every session of the member ends.
 * The revocation's reason is asked in the same dialog, in place of the list.
 */
export function MemberPasskeysDialog({
  member,
  onClose,
}: {
  member: StaffMember;
  onClose: () => void;
}) {
  const { t } = useTranslation('staff');
  const errorText = useErrorText();
  const passkeys = useMemberPasskeys(member.id);
  const revoke = useRevokePasskey();
  const [revoking, setRevoking] = useState<Passkey | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);

  return (
    <ModalDialog
      title={t('passkeys.title', { name: member.name })}
      lead={revoking ? null : t('passkeys.lead', { name: member.name })}
      pending={revoke.isPending}
      onClose={onClose}
      wide
    >
      {revoking ? (
        <>
          <h3 className="mb-1 text-body font-semibold text-mist-900">
            {t('passkeys.revokeTitle', { passkey: revoking.name })}
          </h3>
          <p className="mb-4 text-body text-mist-600">
            {t('passkeys.revokeLead', { name: member.name })}
          </p>
          <ReasonForm
            texts={{
              label: t('reason.label'),
              hint: t('reason.hint'),
              required: t('reason.required'),
              cancel: t('reason.cancel'),
              confirm: t('passkeys.revokeConfirm'),
              pending: t('passkeys.revokePending'),
            }}
            tone="danger"
            pending={revoke.isPending}
            error={revoke.error}
            autoFocus
            onCancel={() => {
              revoke.reset();
              setRevoking(null);
            }}
            onConfirm={(reason) =>
              revoke.mutate(
                { id: member.id, passkeyId: revoking.id, reason },
                {
                  onSuccess: () => {
                    setRevoked(
                      t('passkeys.revoked', { passkey: revoking.name, name: member.name }),
                    );
                    setRevoking(null);
                  },
                },
              )
            }
          />
        </>
      ) : (
        <div className="flex flex-col gap-4">
          {revoked ? <Notice tone="success">{revoked}</Notice> : null}
          {passkeys.isPending ? (
            <p role="status" className="py-4 text-center text-body text-mist-600">
              {t('passkeys.loading')}
            </p>
          ) : passkeys.isError && !passkeys.data ? (
            <LoadFailed
              title={t('passkeys.loadFailed')}
              error={passkeys.error}
              retry={t('retry')}
              onRetry={() => void passkeys.refetch()}
            />
          ) : passkeys.data.items.length === 0 ? (
            <p className="py-4 text-center text-body text-mist-600">
              {t('passkeys.empty', { name: member.name })}
            </p>
          ) : (
            <ul className="divide-y divide-mist-200 rounded-lg border border-mist-200">
              {passkeys.data.items.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
                  <div className="min-w-0 flex-1">
                    <div className="font-semibold text-mist-900 [overflow-wrap:anywhere]">
                      {key.name}
                    </div>
                    <div className="text-caption text-mist-600">
                      {key.lastUsedAt
                        ? t('passkeys.usedLine', {
                            date: formatDate(key.createdAt),
                            time: formatDateTime(key.lastUsedAt),
                          })
                        : t('passkeys.unusedLine', { date: formatDate(key.createdAt) })}
                    </div>
                  </div>
                  <Button
                    variant="secondary"
                    size="sm"
                    icon={<KeyRound aria-hidden="true" className="size-4" />}
                    aria-label={t('passkeys.revokeFor', { passkey: key.name })}
                    onClick={() => {
                      revoke.reset();
                      setRevoked(null);
                      setRevoking(key);
                    }}
                  >
                    {t('passkeys.revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {passkeys.isError && passkeys.data ? (
            <Notice tone="danger">{errorText(passkeys.error)}</Notice>
          ) : null}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              {t('passkeys.close')}
            </Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
