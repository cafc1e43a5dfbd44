import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ArrowLeft, RefreshCw } from 'lucide-react';
import type { StaffCustomerView } from '@alda/contract/schemas/staff-customers';
import { mayUse } from '@/app/areas';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { clockTime } from '@/shared/format';
import { localeOf } from '@/shared/i18n';
import { useSession } from '@/shared/services';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { ReasonForm } from '@/shared/ui/reason-dialog';
import { UpdatedAt } from '@/shared/ui/updated-at';
import { BillsTab } from './bills-tab';
import { needsReason, useCustomer, useOpenCustomer } from './customers-api';
import {
  ActivityTab,
  FamilyTab,
  LinesTab,
  MessagesTab,
  OrdersTab,
  PaymentsTab,
  ReceiptsTab,
  SessionsTab,
} from './customer-tabs';
import { formatDate, formatPhoneNumber } from './format';
import { Facts, Tabs, type TabItem } from './parts';
import { reasonTexts } from './reason-texts';

export const CUSTOMER_TABS = [
  'lines',
  'family',
  'orders',
  'payments',
  'bills',
  'receipts',
  'messages',
  'sessions',
  'activity',
] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];

const isTab = (value: string | null): value is CustomerTab =>
  (CUSTOMER_TABS as readonly (string | null)[]).includes(value);

/** Orders whose port the other provider rejected, waiting for the customer's correction. */
function rejectedPorts(view: StaffCustomerView) {
  return view.orders.filter(
    (o) => !o.isComplete && !o.isCancelled && o.provisioning?.waitingFor === 'customer_correction',
  );
}

function BackLink() {
  const { t } = useTranslation('customers');
  return (
    <Link
      to=".."
      relative="path"
      className="mb-3 inline-flex items-center gap-1.5 text-caption font-semibold text-ocean-700 hover:text-ocean-900"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('view.back')}
    </Link>
  );
}

/**
 * `/console/customers/:id`: the customer view — who they are, their numbers, family, orders with
 * the step timeline, payments, monthly bills, receipts, messages, sessions and activity —
 * refreshed every 5 s (an order moving shows without a reload). It answers only once the customer
 * was opened with a reason in this staff session; otherwise the reason is asked for here.
 */
export function CustomerScreen() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('customers');
  const locale = localeOf(i18n);
  const errorText = useErrorText();
  const session = useSession();
  const role = session?.staff.role ?? 'support';
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: CustomerTab = isTab(tabParam) ? tabParam : 'lines';
  const customer = useCustomer(id);
  const open = useOpenCustomer();

  if (customer.isPending)
    return (
      <>
        <BackLink />
        <PageHeader title={t('view.loadingTitle')} />
        <p role="status" className="py-8 text-center text-body text-mist-600">
          {t('view.loading')}
        </p>
      </>
    );

  if (!customer.data && needsReason(customer.error))
    return (
      <>
        <BackLink />
        <PageHeader title={t('view.reasonTitle')} lead={t('view.reasonLead')} />
        <div className="max-w-xl rounded-xl border border-mist-200 bg-white p-5">
          <ReasonForm
            texts={reasonTexts(t, t('open.confirm'), t('open.pending'))}
            pending={open.isPending}
            error={open.error}
            onConfirm={(reason) => open.mutate({ id, reason })}
          />
        </div>
      </>
    );

  if (!customer.data)
    return (
      <>
        <BackLink />
        <PageHeader title={t('view.failedTitle')} />
        <Notice tone="danger">
          <p>{isApiError(customer.error, 'NOT_FOUND') ? t('view.notFound') : t('view.failed')}</p>
          <p className="mt-1 font-normal">{errorText(customer.error)}</p>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            icon={<RefreshCw aria-hidden="true" className="size-4" />}
            onClick={() => void customer.refetch()}
          >
            {t('view.retry')}
          </Button>
        </Notice>
      </>
    );

  const view = customer.data;
  const { profile } = view;
  const name = `${profile.firstname} ${profile.lastname}`.trim();
  const numbers = view.lines.filter((l) => l.status !== 'cancelled').map((l) => l.msisdn);
  const rejected = rejectedPorts(view);
  const mayAct = role === 'support' || role === 'admin';
  const select = (next: CustomerTab) =>
    setParams(next === 'lines' ? {} : { tab: next }, { replace: true });

  const tabs: TabItem<CustomerTab>[] = [
    { key: 'lines', label: t('tabs.lines'), count: view.lines.length },
    { key: 'family', label: t('tabs.family'), count: view.family?.members.length ?? 0 },
    {
      key: 'orders',
      label: t('tabs.orders'),
      count: view.orders.length,
      alert: rejected.length > 0,
    },
    { key: 'payments', label: t('tabs.payments'), count: view.payments.length },
    // Fetched when the tab opens (its own call), so no count.
    { key: 'bills', label: t('tabs.bills') },
    { key: 'receipts', label: t('tabs.receipts'), count: view.receipts.length },
    { key: 'messages', label: t('tabs.messages'), count: view.messages.items.length },
    {
      key: 'sessions',
      label: t('tabs.sessions'),
      count: view.sessions.filter((s) => s.revokedAt === null).length,
    },
    { key: 'activity', label: t('tabs.activity'), count: view.activity.length },
  ];

  return (
    <>
      <BackLink />
      <PageHeader
        title={name}
        lead={
          numbers.length > 0 ? (
            <span className="tabular-nums">{numbers.map(formatPhoneNumber).join(' · ')}</span>
          ) : (
            t('view.noNumbers')
          )
        }
        actions={
          customer.isError ? (
            <p className="text-caption text-mist-600" aria-live="off">
              {t('view.stale', { time: clockTime(customer.dataUpdatedAt, locale) })}
            </p>
          ) : (
            <UpdatedAt
              at={customer.dataUpdatedAt}
              className="text-caption text-mist-600"
              aria-live="off"
            />
          )
        }
      />
      {customer.isError ? (
        <Notice tone="danger" className="mb-4">
          {errorText(customer.error)}
        </Notice>
      ) : null}
      {rejected.length > 0 ? (
        <Notice tone="danger" className="mb-4">
          <p>
            {t('view.rejectedPort', {
              count: rejected.length,
              number: rejected[0]?.msisdn ? formatPhoneNumber(rejected[0].msisdn) : '',
            })}
          </p>
          {tab !== 'orders' ? (
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => select('orders')}>
              {t('view.showOrders')}
            </Button>
          ) : null}
        </Notice>
      ) : null}

      <section
        aria-label={t('profile.title')}
        className="mb-6 rounded-xl border border-mist-200 bg-white p-4"
      >
        <Facts
          className="lg:grid-cols-[max-content_minmax(0,1fr)_max-content_minmax(0,1fr)]"
          items={[
            [t('profile.email'), profile.email],
            [
              t('profile.phone'),
              profile.phoneNumber ? formatPhoneNumber(profile.phoneNumber) : t('profile.none'),
            ],
            [
              t('profile.address'),
              [profile.address, [profile.postCode, profile.city].filter(Boolean).join(' ')]
                .filter(Boolean)
                .join(', ') || t('profile.none'),
            ],
            [t('profile.language'), t(`languageNames.${profile.locale}`, { ns: 'common' })],
            [t('profile.since'), formatDate(profile.createdAt)],
            [t('profile.signIn'), t(profile.hasPassword ? 'profile.password' : 'profile.smsOnly')],
          ]}
        />
      </section>

      <Tabs label={t('tabs.label')} items={tabs} selected={tab} onSelect={select}>
        {tab === 'lines' ? <LinesTab lines={view.lines} /> : null}
        {tab === 'family' ? <FamilyTab family={view.family} /> : null}
        {tab === 'orders' ? (
          <OrdersTab orders={view.orders} locale={locale} linkOrders={mayUse(role, 'orders')} />
        ) : null}
        {tab === 'payments' ? (
          <PaymentsTab
            payments={view.payments}
            locale={locale}
            linkPayments={mayUse(role, 'payments')}
          />
        ) : null}
        {tab === 'bills' ? <BillsTab customerId={id} locale={locale} mayAct={mayAct} /> : null}
        {tab === 'receipts' ? <ReceiptsTab receipts={view.receipts} locale={locale} /> : null}
        {tab === 'messages' ? (
          <MessagesTab
            customerId={id}
            messages={view.messages}
            notifications={view.notifications}
            mayAct={mayAct}
          />
        ) : null}
        {tab === 'sessions' ? (
          <SessionsTab customerId={id} sessions={view.sessions} mayAct={mayAct} />
        ) : null}
        {tab === 'activity' ? <ActivityTab activity={view.activity} locale={locale} /> : null}
      </Tabs>
    </>
  );
}
