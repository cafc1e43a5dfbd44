import { useTranslation } from 'react-i18next';
import { formatData } from '@alda/contract/format/data';
import type { Order } from '@alda/contract/schemas/orders';
import type { Account } from '@alda/contract/schemas/subscriptions';
import { useLocale } from '@/shared/i18n/use-locale';
import { formatPhoneNumber } from '@/shared/format/phone';
import { Card } from '@/shared/ui/card';
import { DataIcon, PhoneIcon } from '@/shared/ui/icons';

/**
 * The current account as the start-up loaded it. Only what the data says is shown; the full
 * subscription screens come with the subscriptions issue.
 */
export function AccountSummary({
  account,
  processingOrder,
}: {
  account: Account;
  processingOrder?: Order;
}) {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const member = account.currentMember;
  const memberCount = account.members.length;
  const isFamily = account.type === 'family_plan';

  return (
    <Card className="flex flex-col gap-4" aria-labelledby="account-summary-title">
      <div className="flex items-center justify-between gap-3">
        <h2 id="account-summary-title" className="text-heading font-bold text-ocean-950">
          {t('home.summary.title')}
        </h2>
        <span className="rounded-full bg-fjord-50 px-3 py-1 text-caption font-semibold text-fjord-700">
          {t(`home.summary.${account.type}`)}
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1 rounded-2xl bg-mist-50 p-3">
          <dt className="flex items-center gap-1.5 text-caption text-mist-500">
            <PhoneIcon className="size-4" />
            {t('home.summary.number')}
          </dt>
          <dd className="text-lead font-semibold text-mist-900 tabular-nums">
            {formatPhoneNumber(member.phoneNumber)}
          </dd>
        </div>
        <div className="flex flex-col gap-1 rounded-2xl bg-mist-50 p-3">
          <dt className="flex items-center gap-1.5 text-caption text-mist-500">
            <DataIcon className="size-4" />
            {t('home.summary.dataLeft')}
          </dt>
          <dd className="text-lead font-semibold text-mist-900 tabular-nums">
            {formatData(member.dataRemaining.domestic, locale)}
          </dd>
        </div>
      </dl>
      {isFamily && memberCount > 0 && (
        <p className="text-caption text-mist-600">
          {t('home.summary.members', { count: memberCount })}
        </p>
      )}
      {processingOrder && (
        <p className="rounded-2xl bg-warning-50 px-3 py-2 text-caption text-warning-600">
          {t('home.summary.processing')}
        </p>
      )}
    </Card>
  );
}
