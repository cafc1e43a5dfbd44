import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { accountKeys } from '@/shared/api/account-data';
import { ROUTES } from '@/shared/config/paths';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { cancelUnlockByLink } from '@/shared/protection/protection-api';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button, buttonClasses } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ShieldIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';

/**
 * /nummarlas-stedga?token=… (issue 32, ADR 0076): the unlock e-mail's one-tap cancel. It works
 * signed in or not — whoever asked for the unlock may have taken over the account — with one
 * button, then says the number stays locked.
 */
export function UnlockCancelScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [locked, setLocked] = useState<string | null>(null);

  const cancel = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const result = await cancelUnlockByLink(http, token);
    setBusy(false);
    if (!result.ok) {
      setError(errorMessage(result.error));
      return;
    }
    setLocked(result.data.phoneNumber);
    // Signed in on this device: the lock screen and its rows show the lock again.
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
  };

  const body = () => {
    if (locked)
      return (
        <Card className="flex flex-col items-center gap-4 text-center" role="status">
          <span className="flex size-14 items-center justify-center rounded-full bg-success-50 text-success-600">
            <ShieldIcon className="size-7" />
          </span>
          <h2 className="text-heading font-bold text-ocean-950">
            {t('protection.cancelPage.doneTitle')}
          </h2>
          <p className="text-body text-mist-700">
            {t('protection.cancelPage.doneBody', { number: formatPhoneNumber(locked) })}
          </p>
          <Link
            to={ROUTES.home}
            className={buttonClasses({ variant: 'secondary', size: 'md', block: true })}
          >
            {t('protection.cancelPage.toApp')}
          </Link>
        </Card>
      );
    if (!token) return <Alert tone="error">{t('protection.cancelPage.missingToken')}</Alert>;
    return (
      <Card className="flex flex-col gap-4">
        <p className="text-body text-mist-700">{t('protection.cancelPage.lead')}</p>
        {error && <Alert tone="error">{error}</Alert>}
        <Button block size="lg" loading={busy} onClick={() => void cancel()}>
          {busy ? t('protection.cancelPage.cancelling') : t('protection.cancelPage.button')}
        </Button>
      </Card>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('protection.cancelPage.title')} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}
