import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import { countryName } from '@alda/contract/format/country';
import type { AuthSession, Reauthentication } from '@alda/contract/schemas/sessions';
import { EmptyState } from '@/shared/account/screen-states';
import type { Result } from '@/shared/api/http';
import { ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { ErrorState } from '@/shared/ui/error-state';
import { CheckIcon, GlobeIcon, LogoutIcon, PhoneIcon, WarningIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';
import { useToast } from '@/shared/ui/toast/toast-context';
import { useStepUp } from '@/shared/step-up/use-step-up';
import { deviceKeys, deviceQueries, signOutDevice, signOutOtherDevices } from './devices-api';

/**
 * /min-brukari/eindir (issue 14, OWASP ASVS 5.0 V7; ADR 0059): the devices signed in to the
 * customer's user — this one marked, the others with a sign-out each — and "sign out all other
 * devices". Every sign-out is confirmed with the password (a customer without one: an SMS code;
 * ASVS 5.0 7.5.2) in a modal that stays open until it is done; it takes effect at once on the
 * server.
 */
export function DevicesScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const describe = useDeviceDescription();
  const query = useQuery(deviceQueries.list(http));

  const refresh = () => queryClient.invalidateQueries({ queryKey: deviceKeys.all });

  const stepUp = useStepUp();
  /** Asks for the password (or code) and signs out with it; null when the customer cancelled. */
  const confirmSignOut = <T,>(options: {
    title: string;
    message: string;
    confirmLabel: string;
    signOut: (proof: Reauthentication) => Promise<Result<T>>;
  }): Promise<Result<T> | null> =>
    stepUp({
      ...options,
      busyLabel: t('profile.devices.signingOut'),
      submit: options.signOut,
      icon: (
        <span className="flex size-12 items-center justify-center rounded-full bg-danger-50 text-danger-600">
          <WarningIcon />
        </span>
      ),
    });

  const signOutOne = async (session: AuthSession) => {
    const device = describe(session).label;
    const result = await confirmSignOut({
      title: t('profile.devices.confirmOneTitle', { device }),
      message: t('profile.devices.confirmOneMessage'),
      confirmLabel: t('profile.devices.signOut'),
      signOut: (proof) => signOutDevice(http, session.id, proof),
    });
    if (!result) return;
    // SESSION_NOT_FOUND: it was signed out meanwhile; the list is refreshed either way.
    if (result.ok) toast.show({ type: 'info', message: t('profile.devices.signedOut') });
    else toast.show({ type: 'error', message: errorMessage(result.error) });
    await refresh();
  };

  const signOutOthers = async () => {
    const result = await confirmSignOut({
      title: t('profile.devices.confirmOthersTitle'),
      message: t('profile.devices.confirmOthersMessage'),
      confirmLabel: t('profile.devices.confirmOthers'),
      signOut: (proof) => signOutOtherDevices(http, proof),
    });
    if (!result) return;
    if (result.ok)
      toast.show({
        type: 'info',
        message: t('profile.devices.signedOutOthers', { count: result.data.signedOut }),
      });
    else toast.show({ type: 'error', message: errorMessage(result.error) });
    await refresh();
  };

  const body = () => {
    if (query.isPending)
      return (
        <div className="flex flex-col gap-3" aria-busy="true" aria-label={t('app.loading')}>
          <Skeleton className="h-28 rounded-card" />
          <Skeleton className="h-28 rounded-card" />
        </div>
      );
    if (query.isError)
      return (
        <ErrorState
          message={t('profile.devices.loadFailed')}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      );
    const current = query.data.filter((s) => s.current);
    const others = query.data.filter((s) => !s.current);
    return (
      <>
        {current.length > 0 && (
          <section aria-labelledby="devices-current" className="flex flex-col gap-3">
            <h2 id="devices-current" className="text-lead font-bold text-ocean-950">
              {t('profile.devices.thisDevice')}
            </h2>
            <ul className="flex flex-col gap-3">
              {current.map((session) => (
                <DeviceCard key={session.id} session={session} />
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="devices-others" className="flex flex-col gap-3">
          <h2 id="devices-others" className="text-lead font-bold text-ocean-950">
            {t('profile.devices.otherDevices')}
          </h2>
          {others.length === 0 ? (
            <EmptyState
              icon={<CheckIcon />}
              title={t('profile.devices.emptyTitle')}
              body={t('profile.devices.emptyBody')}
            />
          ) : (
            <>
              <ul className="flex flex-col gap-3">
                {others.map((session) => (
                  <DeviceCard
                    key={session.id}
                    session={session}
                    onSignOut={() => void signOutOne(session)}
                  />
                ))}
              </ul>
              <Button
                variant="danger"
                block
                icon={<LogoutIcon className="size-5" />}
                onClick={() => void signOutOthers()}
              >
                {t('profile.devices.signOutOthers')}
              </Button>
            </>
          )}
        </section>
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('profile.devices.title')} back={ROUTES.profile} />
      <ScreenBody>
        <p className="text-body text-mist-600">{t('profile.devices.lead')}</p>
        {body()}
      </ScreenBody>
    </main>
  );
}

/** One signed-in device: what it is, when it signed in and was last active, where, sign out. */
function DeviceCard({ session, onSignOut }: { session: AuthSession; onSignOut?: () => void }) {
  const { t } = useTranslation();
  const i18n = useI18n();
  const { dateTime } = useFormatters();
  const describe = useDeviceDescription();
  const { label, platform } = describe(session);
  const DeviceIcon = session.device.platform === 'web' ? GlobeIcon : PhoneIcon;
  return (
    <li
      aria-label={label}
      className="flex flex-col gap-3 rounded-card bg-white p-4 shadow-card"
      data-current={session.current || undefined}
    >
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
          <DeviceIcon className="size-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <p className="text-body font-bold break-words text-ocean-950">{label}</p>
            {session.current && (
              <Badge tone="success" icon={<CheckIcon className="size-3.5" />}>
                {t('profile.devices.thisDevice')}
              </Badge>
            )}
          </div>
          {platform && <p className="text-caption text-mist-600">{platform}</p>}
          <p className="text-caption text-mist-600">
            {t('profile.devices.signedInAt', { date: dateTime(session.createdAt) })}
          </p>
          <p className="text-caption text-mist-600">
            {t('profile.devices.lastSeen', { date: dateTime(session.lastSeenAt) })}
          </p>
          <p className="text-caption text-mist-600">
            {t('profile.devices.place', {
              place:
                countryName(session.country, i18n.language) ?? t('profile.devices.unknownPlace'),
            })}
          </p>
        </div>
      </div>
      {onSignOut && (
        <Button
          variant="secondary"
          block
          aria-label={t('profile.devices.signOutNamed', { device: label })}
          onClick={onSignOut}
        >
          {t('profile.devices.signOut')}
        </Button>
      )}
    </li>
  );
}

/** A device's name for people ("Pixel 8", the name its owner gave it) and its platform line. */
function useDeviceDescription() {
  const { t } = useTranslation();
  return (session: AuthSession): { label: string; platform: string | null } => {
    const { name, model, platform, osVersion, userAgent } = session.device;
    const label = name ?? model ?? shortUserAgent(userAgent) ?? t('profile.devices.unknownDevice');
    const version = osVersion ?? '';
    const line =
      platform === 'ios'
        ? t('profile.devices.platformIos', { version }).trim()
        : platform === 'android'
          ? t('profile.devices.platformAndroid', { version }).trim()
          : platform === 'web'
            ? t('profile.devices.platformWeb')
            : null;
    return { label, platform: line };
  };
}

/** The first product of a User-Agent header ("curl/8.5.0"), for sign-ins without device meta. */
function shortUserAgent(userAgent: string | null): string | null {
  const first = userAgent?.trim().split(/\s+/)[0];
  return first ? first.slice(0, 40) : null;
}
