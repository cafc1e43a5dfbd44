import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Send } from 'lucide-react';
import type { Locale } from '@alda/contract/locale';
import type {
  BillPayment,
  BillResponse,
  BillSection,
  BillStateValue,
  BillSummary,
} from '@alda/contract/schemas/bills';
import { formatMonth } from '@alda/contract/format/date';
import { useErrorText } from '@/shared/error-text';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { DataTable, type DataColumn } from '@/shared/ui/data-table';
import { LoadFailed } from '@/shared/ui/load-failed';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { QueryList } from '@/shared/ui/query-list';
import { ReasonDialog } from '@/shared/ui/reason-dialog';
import { useBill, useCustomerBills, useResendBill } from './customers-api';
import { formatDate, formatKr, formatPhoneNumber } from './format';
import { Block, Facts } from './parts';
import { reasonTexts } from './reason-texts';

/*
 * The customer's monthly bills (docs/decisions/0098-monthly-bill.md): the list, newest first;
 * a bill in full in a dialog (its numbers with their items and subtotals, VAT, the total, how it
 * was paid or how to pay it by bank transfer); and "Resend", which e-mails the bill's PDF to the
 * customer again with a reason for the audit log (support and admin).
 */

type T = ReturnType<typeof useTranslation<'customers'>>['t'];

/** Each state is said in words too: the tone only adds to them. */
const STATE_TONES: Record<BillStateValue, BadgeTone> = {
  open: 'info',
  paid: 'success',
  partly_paid: 'warning',
  overdue: 'danger',
};

export function BillStateBadge({ state }: { state: BillStateValue }) {
  const { t } = useTranslation('customers');
  return <Badge tone={STATE_TONES[state]}>{t(`bills.state.${state}`)}</Badge>;
}

/** How a payment was made: the card as `Visa •••• 4242`, else the method. */
function paymentMethodText(payment: BillPayment, t: T): string {
  const method = t(`payments.method.${payment.method}`);
  if (payment.cardLast4 === null) return method;
  const card = t('payments.card', {
    brand: payment.cardBrand ?? t('payments.unknownBrand'),
    last4: payment.cardLast4,
  });
  return payment.method === 'card' ? card : `${method} · ${card}`;
}

/** The bill's payment in words: when and how it was paid, what is paid of it, or when it is due. */
function PaymentCell({ bill, locale }: { bill: BillSummary; locale: Locale }) {
  const { t } = useTranslation('customers');
  if (bill.state === 'paid')
    return (
      <div>
        <div className="whitespace-nowrap">
          {bill.payment
            ? t('bills.paidOn', { date: formatDate(bill.payment.paidAt) })
            : t('bills.nothingOwed')}
        </div>
        {bill.payment ? (
          <div className="text-caption text-mist-600">{paymentMethodText(bill.payment, t)}</div>
        ) : null}
      </div>
    );
  return (
    <div>
      {bill.paidOere > 0 ? (
        <div className="whitespace-nowrap">
          {t('bills.paidPart', {
            paid: formatKr(bill.paidOere, locale),
            total: formatKr(bill.total.gross, locale),
          })}
        </div>
      ) : null}
      <div
        className={
          bill.state === 'overdue'
            ? 'font-semibold whitespace-nowrap text-danger-700'
            : 'whitespace-nowrap'
        }
      >
        {t(bill.state === 'overdue' ? 'bills.dueWas' : 'bills.due', {
          date: formatDate(bill.dueDate),
        })}
      </div>
    </div>
  );
}

export function BillsTab({
  customerId,
  locale,
  mayAct,
}: {
  customerId: string;
  locale: Locale;
  /** The staff member may resend a bill (support, admin). */
  mayAct: boolean;
}) {
  const { t } = useTranslation('customers');
  const bills = useCustomerBills(customerId);
  const resend = useResendBill(customerId);
  const [viewing, setViewing] = useState<BillSummary | null>(null);
  const [resending, setResending] = useState<BillSummary | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const startResend = (bill: BillSummary) => {
    resend.reset();
    setDone(null);
    setViewing(null);
    setResending(bill);
  };

  const columns: DataColumn<BillSummary>[] = [
    {
      id: 'number',
      header: () => t('bills.columns.number'),
      cell: ({ row }) => (
        <div>
          <button
            type="button"
            aria-label={t('bills.openNamed', { number: row.original.number })}
            onClick={() => setViewing(row.original)}
            className="font-semibold whitespace-nowrap text-ocean-700 tabular-nums underline decoration-ocean-300 underline-offset-2 hover:text-ocean-900"
          >
            {row.original.number}
          </button>
          {row.original.scope === 'member' ? (
            <div className="text-caption text-mist-600">{t('bills.memberScope')}</div>
          ) : null}
        </div>
      ),
    },
    {
      id: 'month',
      header: () => t('bills.columns.month'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap">{formatMonth(row.original.period, locale)}</span>
      ),
    },
    {
      id: 'total',
      header: () => t('bills.columns.total'),
      cell: ({ row }) => (
        <span className="whitespace-nowrap tabular-nums">
          {formatKr(row.original.total.gross, locale)}
        </span>
      ),
    },
    {
      id: 'state',
      header: () => t('bills.columns.state'),
      cell: ({ row }) => <BillStateBadge state={row.original.state} />,
    },
    {
      id: 'payment',
      header: () => t('bills.columns.payment'),
      cell: ({ row }) => <PaymentCell bill={row.original} locale={locale} />,
    },
  ];
  if (mayAct)
    columns.push({
      id: 'resend',
      header: () => t('bills.columns.resend'),
      cell: ({ row }) => (
        <Button
          variant="secondary"
          size="sm"
          icon={<Send aria-hidden="true" className="size-4" />}
          aria-label={t('bills.resendNamed', { number: row.original.number })}
          onClick={() => startResend(row.original)}
        >
          {t('bills.resend')}
        </Button>
      ),
    });

  return (
    <Block title={t('bills.title')}>
      <p className="text-caption text-mist-600">{t('bills.lead')}</p>
      {done ? <Notice tone="success">{done}</Notice> : null}
      <QueryList
        query={bills}
        texts={{
          loading: t('bills.loading'),
          loadFailed: t('bills.loadFailed'),
          retry: t('bills.retry'),
        }}
      >
        <DataTable
          columns={columns}
          data={bills.data?.items ?? []}
          caption={t('bills.title')}
          getRowId={(row) => row.id}
          empty={t('bills.empty')}
        />
      </QueryList>
      {viewing ? (
        <BillDialog
          summary={viewing}
          locale={locale}
          mayAct={mayAct}
          onResend={() => startResend(viewing)}
          onClose={() => setViewing(null)}
        />
      ) : null}
      {resending ? (
        <ReasonDialog
          title={t('bills.resendTitle')}
          lead={t('bills.resendLead', {
            number: resending.number,
            month: formatMonth(resending.period, locale),
          })}
          texts={reasonTexts(t, t('bills.resend'), t('bills.resending'))}
          pending={resend.isPending}
          error={resend.error}
          onClose={() => setResending(null)}
          onConfirm={(reason) =>
            resend.mutate(
              { billId: resending.id, reason },
              {
                onSuccess: (result) => {
                  setResending(null);
                  setDone(t('bills.resent', { to: result.sentTo, number: resending.number }));
                },
              },
            )
          }
        />
      ) : null}
    </Block>
  );
}

/** A number's part of the bill: its items, each with whether and how it is paid, and subtotal. */
function SectionTable({ section, locale }: { section: BillSection; locale: Locale }) {
  const { t } = useTranslation('customers');
  const number = formatPhoneNumber(section.phoneNumber);
  return (
    <section className="flex flex-col gap-2">
      <h3 className="text-body font-bold text-ocean-950">
        <span className="tabular-nums">{number}</span>
        <span className="ml-2 font-semibold text-mist-700">
          {section.holder ?? t('bills.detail.ownNumber')}
        </span>
      </h3>
      <div className="overflow-x-auto rounded-xl border border-mist-200 bg-white">
        <table className="w-full border-collapse text-left text-caption">
          <caption className="sr-only">{t('bills.detail.sectionCaption', { number })}</caption>
          <thead className="bg-mist-50">
            <tr>
              <th
                scope="col"
                className="border-b border-mist-200 px-4 py-2 font-semibold text-mist-700"
              >
                {t('bills.detail.columns.item')}
              </th>
              <th
                scope="col"
                className="border-b border-mist-200 px-4 py-2 font-semibold text-mist-700"
              >
                {t('bills.detail.columns.paid')}
              </th>
              <th
                scope="col"
                className="border-b border-mist-200 px-4 py-2 text-right font-semibold text-mist-700"
              >
                {t('bills.detail.columns.price')}
              </th>
            </tr>
          </thead>
          <tbody>
            {section.items.length === 0 ? (
              <tr>
                <td colSpan={3} className="px-4 py-3 text-mist-600">
                  {t('bills.detail.noItems')}
                </td>
              </tr>
            ) : (
              section.items.map((item) => (
                <tr key={item.id} className="border-b border-mist-100 last:border-0">
                  <td className="px-4 py-2 align-top break-words text-mist-900">
                    {item.description}
                  </td>
                  <td className="px-4 py-2 align-top text-mist-700">
                    {item.paid ? (
                      <>
                        <div className="whitespace-nowrap">
                          {item.payment
                            ? t('bills.paidOn', { date: formatDate(item.payment.paidAt) })
                            : t('bills.detail.itemPaid')}
                        </div>
                        {item.payment ? (
                          <div className="text-mist-600">{paymentMethodText(item.payment, t)}</div>
                        ) : null}
                      </>
                    ) : (
                      t('bills.detail.itemUnpaid')
                    )}
                  </td>
                  <td className="px-4 py-2 text-right align-top whitespace-nowrap tabular-nums">
                    {formatKr(item.price.gross, locale)}
                  </td>
                </tr>
              ))
            )}
          </tbody>
          <tfoot>
            <tr className="border-t border-mist-200 bg-mist-50">
              <th scope="row" colSpan={2} className="px-4 py-2 text-left font-semibold">
                {t('bills.detail.subtotal', { number })}
              </th>
              <td className="px-4 py-2 text-right font-semibold whitespace-nowrap tabular-nums">
                {formatKr(section.subtotal.gross, locale)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

/** The bill in full: its facts, a section per number, the totals and the bank transfer. */
function BillDetails({ bill, locale }: { bill: BillResponse; locale: Locale }) {
  const { t } = useTranslation('customers');
  const owed = Math.max(bill.total.gross - bill.paidOere, 0);
  return (
    <div className="flex flex-col gap-5">
      <Facts
        items={[
          [t('bills.detail.month'), formatMonth(bill.period, locale)],
          [t('bills.detail.issued'), formatDate(bill.issuedAt)],
          [t('bills.detail.due'), formatDate(bill.dueDate)],
          [t('bills.detail.state'), <BillStateBadge key="state" state={bill.state} />],
          [
            t('bills.detail.payment'),
            bill.payment
              ? `${formatDate(bill.payment.paidAt)} · ${paymentMethodText(bill.payment, t)}`
              : t('bills.detail.noPayment'),
          ],
        ]}
      />
      {bill.sections.map((section) => (
        <SectionTable key={section.phoneNumber} section={section} locale={locale} />
      ))}
      <section className="flex flex-col gap-2">
        <h3 className="text-body font-bold text-ocean-950">{t('bills.detail.totals')}</h3>
        <Facts
          items={[
            [t('bills.detail.net'), formatKr(bill.total.net, locale)],
            [t('bills.detail.vat', { rate: bill.vatRate }), formatKr(bill.total.vat, locale)],
            [
              t('bills.detail.gross'),
              <strong key="gross">{formatKr(bill.total.gross, locale)}</strong>,
            ],
            [t('bills.detail.paid'), formatKr(bill.paidOere, locale)],
            [t('bills.detail.owed'), formatKr(owed, locale)],
          ]}
        />
      </section>
      {bill.bankTransfer ? (
        <section className="flex flex-col gap-2">
          <h3 className="text-body font-bold text-ocean-950">{t('bills.detail.bankTitle')}</h3>
          <p className="text-caption text-mist-600">{t('bills.detail.bankLead')}</p>
          <Facts
            items={[
              [t('bills.detail.account'), bill.bankTransfer.account],
              [t('bills.detail.iban'), bill.bankTransfer.iban],
              [t('bills.detail.reference'), bill.bankTransfer.reference],
              [t('bills.detail.amount'), formatKr(bill.bankTransfer.amountOere, locale)],
              [t('bills.detail.due'), formatDate(bill.bankTransfer.dueDate)],
            ]}
          />
        </section>
      ) : null}
    </div>
  );
}

/**
 * One bill, fetched in full (`GET /api/staff/bills/{id}`), in a wide dialog. "Resend" hands over
 * to the reason dialog of the list (`onResend`).
 */
function BillDialog({
  summary,
  locale,
  mayAct,
  onResend,
  onClose,
}: {
  summary: BillSummary;
  locale: Locale;
  mayAct: boolean;
  onResend: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('customers');
  const errorText = useErrorText();
  const bill = useBill(summary.id);
  return (
    <ModalDialog
      title={t('bills.detail.title', { number: summary.number })}
      lead={t('bills.detail.lead', { month: formatMonth(summary.period, locale) })}
      onClose={onClose}
      wide
    >
      <div className="flex flex-col gap-5">
        {bill.isPending ? (
          <p role="status" className="py-4 text-center text-body text-mist-600">
            {t('bills.detail.loading')}
          </p>
        ) : bill.isError && !bill.data ? (
          <LoadFailed
            title={t('bills.detail.loadFailed')}
            error={bill.error}
            retry={t('bills.retry')}
            onRetry={() => void bill.refetch()}
          />
        ) : (
          <BillDetails bill={bill.data} locale={locale} />
        )}
        {bill.isError && bill.data ? <Notice tone="danger">{errorText(bill.error)}</Notice> : null}
        <div className="flex flex-wrap justify-end gap-2">
          {mayAct ? (
            <Button
              variant="secondary"
              icon={<Send aria-hidden="true" className="size-4" />}
              onClick={onResend}
            >
              {t('bills.resend')}
            </Button>
          ) : null}
          <Button onClick={onClose}>{t('bills.detail.close')}</Button>
        </div>
      </div>
    </ModalDialog>
  );
}
