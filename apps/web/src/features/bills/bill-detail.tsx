import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMonth } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type {
  BankTransfer,
  BillResponse,
  BillSection as Section,
} from '@alda/contract/schemas/bills';
import { href, ROUTES } from '@/shared/config/paths';
import { downloadPdf } from '@/shared/documents/download-pdf';
import { pdfFileName } from '@/shared/documents/save-file';
import { useFormatters } from '@/shared/format/use-formatters';
import { useLocale } from '@/shared/i18n/use-locale';
import { useAppServices } from '@/shared/services/app-services';
import { Button, buttonClasses } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ChevronRightIcon, DocumentIcon, MailIcon } from '@/shared/ui/icons';
import { useToast } from '@/shared/ui/toast/toast-context';
import { usePaymentText } from './bill-format';
import { BankIcon, CopyIcon } from './bill-icons';
import { BillStateBadge } from './bill-state';
import { billPdfUrl, downloadBillPdf, emailBill } from './bills-api';

/** `yyyy-mm-dd` as the SPEC §9 date, DD.MM.YYYY. */
const isoDateLabel = (date: string) => date.split('-').reverse().join('.');

/** A label and its value, on one row. */
function Row({
  label,
  children,
  strong,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
}) {
  return (
    <div
      className={
        strong
          ? 'flex justify-between gap-3 pt-1 text-lead font-bold text-ocean-950'
          : 'flex justify-between gap-3 text-mist-700'
      }
    >
      <dt>{label}</dt>
      <dd className="text-right whitespace-nowrap tabular-nums">{children}</dd>
    </div>
  );
}

/** The bill's head: its month, number, dates and state. */
export function BillOverview({ bill }: { bill: BillResponse }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [locale] = useLocale();
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="bill-title">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id="bill-title" className="text-lead font-bold text-ocean-950 first-letter:uppercase">
          {formatMonth(bill.period, locale)}
        </h2>
        <BillStateBadge state={bill.state} />
      </div>
      <dl className="flex flex-col gap-1.5 text-body">
        <Row label={t('bills.billNumber')}>{bill.number}</Row>
        <Row label={t('bills.issued')}>{f.date(bill.issuedAt)}</Row>
        <Row label={t('bills.dueDate')}>{isoDateLabel(bill.dueDate)}</Row>
      </dl>
    </Card>
  );
}

/** A number's part of the bill: whose it is, its items and subtotal, and its itemised use. */
export function BillSection({ bill, section }: { bill: BillResponse; section: Section }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const number = formatPhoneNumber(section.phoneNumber);
  const holder = section.holder ?? (bill.scope === 'payer' ? t('bills.yourNumber') : null);
  return (
    <Card
      className="flex flex-col gap-3"
      role="region"
      aria-label={holder ? `${number}, ${holder}` : number}
    >
      <h3 className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-lead font-bold text-ocean-950 tabular-nums">{number}</span>
        {holder && <span className="text-body text-mist-600">{holder}</span>}
      </h3>
      <ul className="flex flex-col divide-y divide-mist-100 border-y border-mist-100">
        {section.items.map((item) => (
          <li
            key={item.id}
            className="flex items-baseline justify-between gap-x-3 py-2.5 text-body"
          >
            <span className="min-w-0 text-mist-900">{item.description}</span>
            <span className="shrink-0 font-medium whitespace-nowrap text-ocean-950 tabular-nums">
              {f.kr(item.price.gross)}
            </span>
          </li>
        ))}
      </ul>
      <dl className="text-body font-semibold">
        <Row label={t('bills.subtotal')}>{f.kr(section.subtotal.gross)}</Row>
      </dl>
      <Link
        to={href(ROUTES.billUsage, { billId: bill.id, phoneNumber: section.phoneNumber })}
        className="flex items-center gap-2 py-2 text-body font-semibold text-fjord-700"
      >
        <span className="flex-1">{t('bills.usageLink', { number })}</span>
        <ChevronRightIcon className="size-5 shrink-0" />
      </Link>
    </Card>
  );
}

/**
 * The totals (without VAT, the VAT, with VAT; what is paid and what is left when partly paid),
 * then how and when it was paid, or how to pay it by bank transfer.
 */
export function BillPayment({ bill }: { bill: BillResponse }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const paidText = usePaymentText();
  const partly = bill.paidOere > 0 && bill.paidOere < bill.total.gross;
  return (
    <>
      <Card className="flex flex-col gap-3">
        <dl className="flex flex-col gap-1.5 text-body">
          <Row label={t('bills.net')}>{f.kr(bill.total.net)}</Row>
          <Row label={t('bills.vat', { rate: bill.vatRate })}>{f.kr(bill.total.vat)}</Row>
          <Row label={t('bills.total')} strong>
            {f.kr(bill.total.gross)}
          </Row>
          {partly && (
            <>
              <Row label={t('bills.paidSoFar')}>{f.kr(bill.paidOere)}</Row>
              <Row label={t('bills.left')}>{f.kr(bill.total.gross - bill.paidOere)}</Row>
            </>
          )}
        </dl>
        {bill.payment && (
          <p className="text-body text-mist-700">{paidText(bill.payment, f.date, true)}</p>
        )}
      </Card>
      {bill.bankTransfer && <BankTransferCard transfer={bill.bankTransfer} />}
    </>
  );
}

/** What is owed and how to pay it by bank transfer: account, IBAN and reference to copy. */
function BankTransferCard({ transfer }: { transfer: BankTransfer }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="bank-title">
      <div className="flex items-start gap-3">
        <BankIcon className="mt-0.5 size-6 shrink-0 text-ocean-700" />
        <div className="flex min-w-0 flex-col gap-1">
          <h3 id="bank-title" className="text-lead font-bold text-ocean-950">
            {t('bills.bank.title')}
          </h3>
          <p className="text-body text-mist-600">{t('bills.bank.body')}</p>
        </div>
      </div>
      <dl className="flex flex-col gap-3 text-body">
        <CopyRow label={t('bills.bank.account')} value={transfer.account} />
        <CopyRow label={t('bills.bank.iban')} value={transfer.iban} />
        <CopyRow label={t('bills.bank.reference')} value={transfer.reference} />
        <div className="flex justify-between gap-3 border-t border-mist-100 pt-3">
          <dt className="text-mist-700">{t('bills.bank.amount')}</dt>
          <dd className="font-bold text-ocean-950 tabular-nums">{f.kr(transfer.amountOere)}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-mist-700">{t('bills.bank.dueDate')}</dt>
          <dd className="tabular-nums">{isoDateLabel(transfer.dueDate)}</dd>
        </div>
      </dl>
    </Card>
  );
}

/** A value to type into the bank's form, with a button that copies it. */
function CopyRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.show({ type: 'info', message: t('bills.bank.copied', { what: label }) });
    } catch {
      toast.show({ type: 'error', message: t('bills.bank.copyFailed') });
    }
  };
  return (
    <div className="flex flex-col">
      <dt className="text-caption font-semibold text-mist-600">{label}</dt>
      <dd className="flex items-center gap-3">
        <span className="min-w-0 flex-1 font-mono text-body break-all text-mist-900">{value}</span>
        <button
          type="button"
          onClick={() => void copy()}
          aria-label={t('bills.bank.copy', { what: label })}
          className={buttonClasses({ variant: 'secondary', size: 'md', className: 'shrink-0' })}
        >
          <CopyIcon className="size-4" />
          {t('bills.bank.copyShort')}
        </button>
      </dd>
    </div>
  );
}

/**
 * "Tak niður PDF" (web: the PDF with the bearer token, saved as a file; native: shown in the
 * in-app browser) and e-mail, as for receipts; each with its own failure. The payer's only.
 */
export function BillActions({ bill }: { bill: BillResponse }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const [busy, setBusy] = useState<'download' | 'email' | null>(null);

  const download = async () => {
    setBusy('download');
    const done = await downloadPdf({
      file: () => downloadBillPdf(http, bill.id),
      link: () => billPdfUrl(http, bill.id),
      fileName: pdfFileName(bill.number, t('bills.filePrefix')),
    });
    setBusy(null);
    if (!done) toast.show({ type: 'error', message: t('bills.downloadFailed') });
  };

  const email = async () => {
    setBusy('email');
    const result = await emailBill(http, bill.id);
    setBusy(null);
    if (!result.ok) {
      toast.show({ type: 'error', message: t('bills.emailFailed') });
      return;
    }
    toast.show({ type: 'info', message: t('bills.emailSent', { email: result.data.sentTo }) });
  };

  return (
    <div className="flex flex-col gap-3">
      <Button
        block
        loading={busy === 'download'}
        disabled={busy !== null}
        icon={<DocumentIcon className="size-5" />}
        onClick={() => void download()}
      >
        {t('bills.download')}
      </Button>
      <Button
        block
        variant="secondary"
        loading={busy === 'email'}
        disabled={busy !== null}
        icon={<MailIcon className="size-5" />}
        onClick={() => void email()}
      >
        {t('bills.email')}
      </Button>
    </div>
  );
}
