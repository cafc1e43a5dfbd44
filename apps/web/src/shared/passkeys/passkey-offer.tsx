import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PASSKEY_FRESH_SIGN_IN_S } from '@alda/contract/schemas/passkeys';
import { ROUTES } from '@/shared/config/paths';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { preferences, type KeyValueStorage } from '@/shared/native/preferences';
import { useAppServices } from '@/shared/services/app-services';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { PasskeyIcon } from '@/shared/ui/passkey-icon';
import { useToast } from '@/shared/ui/toast/toast-context';
import { createPasskey } from './create-passkey';
import { passkeyKeys, passkeyQueries, passkeyRegistrationOptionsOf } from './passkeys-api';

/** Device key: `userId`'s answer to the offer ("accepted" or "dismissed"); it is not made again. */
export const passkeyOfferAnsweredKey = (userId: string) => `alda.passkeyOffer.${userId}`;

/** Whether `userId` answered the offer on this device: null while it is read. */
function useAnswered(userId: string, storage: KeyValueStorage, onAnswered: () => void) {
  const [answered, setAnswered] = useState<boolean | null>(null);
  useEffect(() => {
    let current = true;
    storage.get(passkeyOfferAnsweredKey(userId)).then(
      (value) => current && setAnswered(value !== null),
      () => current && setAnswered(false),
    );
    return () => {
      current = false;
    };
  }, [userId, storage]);
  const answer = (value: 'accepted' | 'dismissed') => {
    setAnswered(true);
    onAnswered();
    void storage.set(passkeyOfferAnsweredKey(userId), value).catch(() => {});
  };
  return [answered, answer] as const;
}

/**
 * "Sign in faster next time?" (ADR 0097): after a password sign-in or a registration, once per
 * device and user, on home (and welcome) — while the sign-in is fresh, when this browser has
 * WebAuthn (passkey-offer-slot.tsx) and the customer has no passkey yet. "Create a passkey" needs
 * no password again (the API's fresh sign-in; `{}`), then the device's own dialog; "Not now"
 * and a created passkey are remembered on this device for this user.
 */
export function PasskeyOffer({
  userId,
  signedInAt,
  onAnswered,
  storage = preferences,
}: {
  userId: string;
  /** When this tab's password sign-in was (epoch ms). */
  signedInAt: number;
  /** Answered here, or sent to the passkeys screen: this tab's sign-in asks no more. */
  onAnswered: () => void;
  storage?: KeyValueStorage;
}) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [answered, answer] = useAnswered(userId, storage, onAnswered);
  // Within the API's window for `{}`; later sign-ins make a passkey on the profile, with the
  // password again.
  const [fresh] = useState(() => Date.now() - signedInAt < PASSKEY_FRESH_SIGN_IN_S * 1000);
  const passkeys = useQuery({
    ...passkeyQueries.list(http),
    enabled: answered === false && fresh,
    staleTime: 60_000,
  });
  const [busy, setBusy] = useState(false);

  if (answered !== false || !fresh || passkeys.data?.length !== 0) return null;

  const accept = async () => {
    setBusy(true);
    const options = await passkeyRegistrationOptionsOf(http, {});
    if (!options.ok) {
      setBusy(false);
      if (options.error.code === 'VALIDATION_FAILED') {
        // The sign-in is no longer fresh for the API: the passkeys screen asks for the proof.
        onAnswered();
        await navigate(ROUTES.passkeys);
        return;
      }
      toast.show({ type: 'error', message: errorMessage(options.error) });
      return;
    }
    const created = await createPasskey(http, options.data.options);
    setBusy(false);
    if (created.status === 'cancelled') return;
    if (created.status === 'failed') {
      const { error } = created;
      toast.show({
        type: 'error',
        message: error.code === 'UNKNOWN' ? t('home.passkeyOffer.failed') : errorMessage(error),
      });
      return;
    }
    answer('accepted');
    queryClient.setQueryData(passkeyKeys.all, [created.data]);
    toast.show({ type: 'info', message: t('home.passkeyOffer.created') });
  };

  return (
    <Card role="region" aria-labelledby="passkey-offer-title" className="flex flex-col gap-3">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-fjord-50 text-fjord-700">
          <PasskeyIcon className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id="passkey-offer-title" className="text-lead font-bold text-ocean-950">
            {t('home.passkeyOffer.title')}
          </h2>
          <p className="text-body text-mist-700">{t('home.passkeyOffer.body')}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="md" loading={busy} onClick={() => void accept()}>
          {t('home.passkeyOffer.create')}
        </Button>
        <Button variant="ghost" size="md" disabled={busy} onClick={() => answer('dismissed')}>
          {t('home.passkeyOffer.dismiss')}
        </Button>
      </div>
    </Card>
  );
}
