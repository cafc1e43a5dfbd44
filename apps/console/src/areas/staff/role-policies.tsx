import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StaffRolePolicy } from '@alda/contract/schemas/staff';
import { isApiError } from '@/shared/api';
import { cx } from '@/shared/cx';
import { Notice } from '@/shared/ui/notice';
import { QueryList } from '@/shared/ui/query-list';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { useRolePolicies, useSetRolePolicy } from './staff-api';

/**
 * "Require a passkey" per role (admin, ADR 0097): a switch for each role with its active members
 * and how many of them have no passkey. Switching asks for a reason in a dialog, which says —
 * before the rule is switched on — how many members could no longer sign in with the code.
 */
export function RolePolicies() {
  const { t } = useTranslation('staff');
  const headingId = useId();
  const policies = useRolePolicies();
  const change = useSetRolePolicy();
  const [asking, setAsking] = useState<StaffRolePolicy | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const roleName = (policy: StaffRolePolicy) => t(`roles.${policy.role}`, { ns: 'common' });

  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-heading font-bold text-ocean-950">
        {t('policies.title')}
      </h2>
      <p className="mt-1 mb-4 text-body text-mist-600">{t('policies.lead')}</p>
      {done ? (
        <Notice tone="success" className="mb-4">
          {done}
        </Notice>
      ) : null}
      <QueryList
        query={policies}
        texts={{
          loading: t('policies.loading'),
          loadFailed: t('policies.loadFailed'),
          retry: t('retry'),
        }}
      >
        <ul className="divide-y divide-mist-200 rounded-lg border border-mist-200 bg-white">
          {(policies.data?.items ?? []).map((policy) => (
            <li key={policy.role} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
              <div className="min-w-0 flex-1">
                <div className="font-semibold text-mist-900">{roleName(policy)}</div>
                <div className="text-caption text-mist-600">
                  {t('policies.members', { count: policy.members })}
                  {policy.membersWithoutPasskey > 0
                    ? ` ${t('policies.withoutPasskey', { count: policy.membersWithoutPasskey })}`
                    : ''}
                </div>
              </div>
              <button
                type="button"
                role="switch"
                aria-checked={policy.requirePasskey}
                aria-label={t('policies.switchFor', { role: roleName(policy) })}
                onClick={() => {
                  change.reset();
                  setDone(null);
                  setAsking(policy);
                }}
                className="inline-flex min-h-9 items-center gap-3 rounded-lg px-2 text-caption font-semibold text-mist-800 hover:bg-mist-100"
              >
                <span
                  aria-hidden="true"
                  className={cx(
                    'relative inline-block h-6 w-11 rounded-full transition-colors',
                    policy.requirePasskey ? 'bg-ocean-700' : 'bg-mist-400',
                  )}
                >
                  <span
                    className={cx(
                      'absolute top-0.5 left-0.5 size-5 rounded-full bg-white shadow transition-transform',
                      policy.requirePasskey ? 'translate-x-5' : null,
                    )}
                  />
                </span>
                <span aria-hidden="true">
                  {policy.requirePasskey ? t('policies.on') : t('policies.off')}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </QueryList>

      {asking ? (
        <ReasonDialog
          title={t(asking.requirePasskey ? 'policies.offTitle' : 'policies.onTitle', {
            role: roleName(asking),
          })}
          lead={
            asking.requirePasskey
              ? t('policies.offLead')
              : asking.members === 0
                ? t('policies.onLeadNone')
                : asking.membersWithoutPasskey > 0
                  ? t('policies.onLead', {
                      count: asking.membersWithoutPasskey,
                      members: asking.members,
                    })
                  : t('policies.onLeadAll', { count: asking.members })
          }
          tone={asking.requirePasskey ? 'primary' : 'danger'}
          texts={{
            label: t('reason.label'),
            hint: t('reason.hint'),
            required: t('reason.required'),
            cancel: t('reason.cancel'),
            confirm: t(asking.requirePasskey ? 'policies.offConfirm' : 'policies.onConfirm'),
            pending: t('policies.pending'),
          }}
          pending={change.isPending}
          // An admin without a passkey requiring them of admins: what to do about it, not "not allowed".
          error={isApiError(change.error, 'STAFF_ACTION_NOT_ALLOWED') ? null : change.error}
          onClose={() => setAsking(null)}
          onConfirm={(reason) =>
            change.mutate(
              { role: asking.role, requirePasskey: !asking.requirePasskey, reason },
              {
                onSuccess: (updated) => {
                  setAsking(null);
                  setDone(
                    t(updated.requirePasskey ? 'policies.onDone' : 'policies.offDone', {
                      role: roleName(updated),
                    }),
                  );
                },
              },
            )
          }
        >
          {isApiError(change.error, 'STAFF_ACTION_NOT_ALLOWED') ? (
            <Notice tone="danger">{t('policies.ownPasskeyFirst')}</Notice>
          ) : null}
        </ReasonDialog>
      ) : null}
    </section>
  );
}
