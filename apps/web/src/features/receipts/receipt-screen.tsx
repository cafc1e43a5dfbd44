import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import type { Receipt, ReceiptLine } from '@alda/contract/schemas/receipts';
import { QueryPending } from '@/shared/account/screen-states';
import { useFormatters } from '@/shared/format/use-formatters';
import { currentLocale } from '@/shared/i18n/i18n';
import { downloadPdf } from '@/shared/documents/download-pdf';
import { pdfFileName } from '@/shared/documents/save-file';
import { useAppServices } from '@/shared/services/app-services';
import { WriteToUsLink } from '@/shared/support/write-to-us-link';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { DocumentIcon, MailIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { downloadReceiptPdf, emailReceipt, receiptPdfUrl, receiptQueries } from './receipts-api';
import { ROUTES } from '@/shared/config/paths';

/**
 * /menu/kvittanir/:receiptId: one receipt — its lines, the total without VAT, the VAT (25 %) and
 * the total with VAT (SPEC §9) — with "Tak niður" (the PDF) and "Send við telduposti".
 */
export function ReceiptScreen() {
  const { receiptId = '' } = useParams();
  const { t } = useTranslation();
  const i18n = useI18n();
  const { http } = useAppServices();
  const query = useQuery(receiptQueries.detail(http, receiptId, currentLocale(i18n)));

  const body = () => {
    if (query.data === undefined)
      return <QueryPending query={query} failedMessage={t('receipts.loadOneFailed')} />;
    return (
      <>
        <ReceiptCard receipt={query.data} />
        <ReceiptActions receipt={query.data} />
        <WriteToUsLink
          item={{ type: 'receipt', id: query.data.id, reference: query.data.number }}
        />
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader
        title={
          query.data
            ? t('receipts.receiptTitle', { number: query.data.number })
            : t('receipts.title')
        }
        back={ROUTES.receipts}
      />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

function ReceiptCard({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="receipt-title">
      <div className="flex flex-col gap-0.5">
        <h2 id="receipt-title" className="text-lead font-bold text-ocean-950">
          {t('receipts.number', { number: receipt.number })}
        </h2>
        <p className="text-caption text-mist-600">
          {t('receipts.issued', { date: f.date(receipt.issuedAt) })}
          {receipt.cardLast4 &&
            ` · ${t('receipts.paidWith', {
              card: `${receipt.cardBrand ?? t('receipts.card')}\u00a0••••\u00a0${receipt.cardLast4}`,
            })}`}
        </p>
      </div>
      <ul className="flex flex-col divide-y divide-mist-100 border-y border-mist-100">
        {receipt.lines.map((line, index) => (
          <li key={`${index}-${line.description}`}>
            <LineRow line={line} />
          </li>
        ))}
      </ul>
      <dl className="flex flex-col gap-1.5 text-body">
        <div className="flex justify-between gap-3 text-mist-700">
          <dt>{t('receipts.net')}</dt>
          <dd className="tabular-nums">{f.kr(receipt.total.net)}</dd>
        </div>
        <div className="flex justify-between gap-3 text-mist-700">
          <dt>{t('receipts.vat', { rate: receipt.vatRate })}</dt>
          <dd className="tabular-nums">{f.kr(receipt.total.vat)}</dd>
        </div>
        <div className="flex justify-between gap-3 pt-1 text-lead font-bold text-ocean-950">
          <dt>{t('receipts.total')}</dt>
          <dd className="tabular-nums">{f.kr(receipt.total.gross)}</dd>
        </div>
      </dl>
    </Card>
  );
}

function LineRow({ line }: { line: ReceiptLine }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <div className="flex items-start justify-between gap-3 py-3">
      <div className="flex min-w-0 flex-col gap-0.5">
        <span className="text-body font-medium text-mist-900">{line.description}</span>
        {line.quantity > 1 && (
          <span className="text-caption text-mist-500">
            {t('receipts.quantity', { count: line.quantity, price: f.kr(line.unitPrice.gross) })}
          </span>
        )}
      </div>
      <span className="text-body font-semibold whitespace-nowrap text-ocean-950 tabular-nums">
        {f.kr(line.total.gross)}
      </span>
    </div>
  );
}

/**
 * Download (web: the PDF with the bearer token, saved as a file; native: shown in the in-app
 * browser) and e-mail, each with its own failure.
 */
function ReceiptActions({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const toast = useToast();
  const [busy, setBusy] = useState<'download' | 'email' | null>(null);

  const download = async () => {
    setBusy('download');
    const done = await downloadPdf({
      file: () => downloadReceiptPdf(http, receipt.id),
      link: () => receiptPdfUrl(http, receipt.id),
      fileName: pdfFileName(receipt.number, t('receipts.filePrefix')),
    });
    setBusy(null);
    if (!done) toast.show({ type: 'error', message: t('receipts.downloadFailed') });
  };

  const email = async () => {
    setBusy('email');
    const result = await emailReceipt(http, receipt.id);
    setBusy(null);
    if (!result.ok) {
      toast.show({ type: 'error', message: t('receipts.emailFailed') });
      return;
    }
    toast.show({ type: 'info', message: t('receipts.emailSent', { email: result.data.sentTo }) });
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
        {t('receipts.download')}
      </Button>
      <Button
        block
        variant="secondary"
        loading={busy === 'email'}
        disabled={busy !== null}
        icon={<MailIcon className="size-5" />}
        onClick={() => void email()}
      >
        {t('receipts.email')}
      </Button>
    </div>
  );
}
