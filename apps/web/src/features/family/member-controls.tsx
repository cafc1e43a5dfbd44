import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { NO_LINE_CONTROLS, type UpdateLineControlsRequest } from '@alda/contract/schemas/controls';
import type { Member } from '@alda/contract/schemas/subscriptions';
import { accountKeys } from '@/shared/api/account-data';
import { controlsApi } from '@/shared/api/package-requests';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { useModal } from '@/shared/ui/modal/modal-context';
import { Switch } from '@/shared/ui/switch';
import { useToast } from '@/shared/ui/toast/toast-context';

/**
 * The owner's controls of one member's number (issue 16.3, ADR 0068): pause the mobile data
 * (confirmed; the network bars it and the member is told) and resume it, and whether the
 * member's extra-package purchases need the owner's approval. Each change is saved at once
 * with PATCH /subscriptions/{id}/controls; the account data is then read again so home, this
 * screen and the member's own app show the new state.
 */
export function MemberControls({ member }: { member: Member }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<'data' | 'approval' | null>(null);
  const controls = member.controls ?? NO_LINE_CONTROLS;
  const name = member.user.firstname;

  const save = async (what: 'data' | 'approval', body: UpdateLineControlsRequest, done: string) => {
    setSaving(what);
    const result = await controlsApi.setControls(http, member.id, body);
    if (result.ok) await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    setSaving(null);
    if (!result.ok) {
      toast.show({
        type: 'error',
        message: `${t('family.controls.failed')} ${errorMessage(result.error)}`,
      });
      return;
    }
    toast.show({ type: 'info', message: done });
  };

  const pause = async () => {
    const confirmed = await modal.confirm({
      title: t('family.controls.pauseTitle'),
      message: t('family.controls.pauseBody', {
        name,
        number: formatPhoneNumber(member.phoneNumber),
      }),
      confirmLabel: t('family.controls.pauseConfirm'),
      tone: 'danger',
    });
    if (confirmed) await save('data', { dataPaused: true }, t('family.controls.paused', { name }));
  };

  return (
    <Card
      className="flex flex-col gap-5"
      role="region"
      aria-labelledby="member-controls-title"
      aria-busy={saving !== null || undefined}
    >
      <h2 id="member-controls-title" className="text-lead font-bold text-ocean-950">
        {t('family.controls.title')}
      </h2>
      <div className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <span className="text-body font-medium text-mist-900">{t('family.controls.data')}</span>
          {controls.dataPaused ? (
            <Badge tone="warning">
              {controls.dataPausedAt
                ? t('family.controls.dataPaused', { date: f.date(controls.dataPausedAt) })
                : t('family.controls.badge')}
            </Badge>
          ) : (
            <Badge tone="success">{t('family.controls.dataOn')}</Badge>
          )}
        </div>
        {controls.dataPaused ? (
          <Button
            block
            size="md"
            loading={saving === 'data'}
            disabled={saving !== null}
            onClick={() =>
              void save('data', { dataPaused: false }, t('family.controls.resumed', { name }))
            }
          >
            {t('family.controls.resume')}
          </Button>
        ) : (
          <Button
            block
            size="md"
            variant="secondary"
            loading={saving === 'data'}
            disabled={saving !== null}
            onClick={() => void pause()}
          >
            {t('family.controls.pause')}
          </Button>
        )}
        {saving === 'data' && (
          <p role="status" className="text-caption text-mist-600">
            {t('family.controls.sending')}
          </p>
        )}
      </div>
      <Switch
        label={t('family.controls.approval')}
        description={t('family.controls.approvalHelp', { name })}
        checked={controls.purchaseApproval}
        disabled={saving !== null}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          void save(
            'approval',
            { purchaseApproval: next },
            next
              ? t('family.controls.approvalOn', { name })
              : t('family.controls.approvalOff', { name }),
          );
        }}
      />
    </Card>
  );
}
