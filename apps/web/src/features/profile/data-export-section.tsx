import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DataExport } from '@alda/contract/schemas/number-protection';
import { appConfig } from '@/shared/config/app-config';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button, buttonClasses } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ErrorState } from '@/shared/ui/error-state';
import { DocumentIcon } from '@/shared/ui/icons';
import { Skeleton } from '@/shared/ui/skeleton';
import { dataExportKeys, isPending, requestDataExport, useDataExportsQuery } from './profile-api';

/**
 * "Tak tínar dátur niður" (issue 32, ADR 0076; GDPR Art. 15 and 20): asks for an export of the
 * customer's data, follows it while it is prepared (the list is read every 2 s), then offers
 * the ZIP's signed link until it expires; a failed or expired export can be asked for again.
 */
export function DataExportSection() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const exports = useDataExportsQuery();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const request = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const result = await requestDataExport(http);
    setBusy(false);
    if (result.ok) {
      queryClient.setQueryData<DataExport[]>(dataExportKeys.all, (old) => [
        result.data,
        ...(old ?? []),
      ]);
      return;
    }
    // DATA_EXPORT_PENDING: one is already on its way (another device); show it instead.
    if (result.error.code !== 'DATA_EXPORT_PENDING') setError(errorMessage(result.error));
    await queryClient.invalidateQueries({ queryKey: dataExportKeys.all });
  };

  const content = () => {
    if (exports.data === undefined)
      return exports.isError ? (
        <ErrorState
          message={t('profile.dataExport.loadFailed')}
          onRetry={() => void exports.refetch()}
          retrying={exports.isFetching}
        />
      ) : (
        <Skeleton className="h-12 rounded-2xl" />
      );
    const latest = exports.data[0];
    if (isPending(latest))
      return <Preparing progress={latest.state === 'queued' ? 0 : latest.progress} />;
    if (latest?.state === 'ready' && latest.downloadUrl) return <Ready item={latest} />;
    return (
      <>
        {latest?.state === 'failed' && <Alert tone="error">{t('profile.dataExport.failed')}</Alert>}
        {(latest?.state === 'expired' || (latest?.state === 'ready' && !latest.downloadUrl)) && (
          <Alert tone="info">{t('profile.dataExport.expired')}</Alert>
        )}
        <Button block variant="secondary" loading={busy} onClick={() => void request()}>
          {latest ? t('profile.dataExport.again') : t('profile.dataExport.request')}
        </Button>
      </>
    );
  };

  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="data-export-title">
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
          <DocumentIcon className="size-5" />
        </span>
        <h2 id="data-export-title" className="text-lead font-bold text-ocean-950">
          {t('profile.dataExport.title')}
        </h2>
      </div>
      <p className="text-body text-mist-700">{t('profile.dataExport.lead')}</p>
      {error && <Alert tone="error">{error}</Alert>}
      {content()}
    </Card>
  );
}

function Preparing({ progress }: { progress: number }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2" aria-live="polite">
      <div className="flex items-center justify-between gap-3">
        <span className="text-body font-medium text-mist-900">
          {t('profile.dataExport.preparing')}
        </span>
        <span className="text-caption text-mist-600">
          {t('profile.dataExport.progress', { progress })}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={t('profile.dataExport.preparing')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-2 overflow-hidden rounded-full bg-mist-100"
      >
        <div
          className="h-full rounded-full bg-fjord-500 transition-[width]"
          style={{ width: `${Math.max(progress, 4)}%` }}
        />
      </div>
      <p className="text-caption text-mist-500">{t('profile.dataExport.preparingHint')}</p>
    </div>
  );
}

function Ready({ item }: { item: DataExport }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <div className="flex flex-col gap-3">
      <Alert tone="success">{t('profile.dataExport.ready')}</Alert>
      <a
        href={downloadHref(item.downloadUrl ?? '')}
        download
        className={buttonClasses({ variant: 'primary', size: 'md', block: true })}
      >
        {t('profile.dataExport.download')}
      </a>
      {item.expiresAt && (
        <p className="text-caption text-mist-500">
          {t('profile.dataExport.expires', { date: f.dateTime(item.expiresAt) })}
        </p>
      )}
    </div>
  );
}

/**
 * The signed link as the browser opens it: a path is the API's, so in the native shell (an
 * absolute API base) it is resolved against the API's origin.
 */
export function downloadHref(url: string): string {
  try {
    return new URL(url, new URL(appConfig.apiBaseUrl, window.location.href)).href;
  } catch {
    return url;
  }
}
