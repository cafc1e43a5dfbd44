import { useRef, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import {
  simPickupLocationsResponse,
  type SimPickupLocation,
  type SimReplacementRequest,
} from '@alda/contract/schemas/provisioning';
import { QueryPending } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { unwrap, type ApiError } from '@/shared/api/http';
import { href, ROUTES } from '@/shared/config/paths';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { useProtectionQuery } from '@/shared/protection/protection-api';
import { orderSimReplacement, useSimQuery } from '@/shared/sim/sim-api';
import { useStepUp } from '@/shared/step-up/use-step-up';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { Skeleton } from '@/shared/ui/skeleton';

type Choice = 'esim' | 'pickup' | 'home';

/** GET /sim-pickup-locations: the shops a SIM card can be picked up at. */
function usePickupLocations() {
  const { http } = useAppServices();
  return useQuery({
    queryKey: ['sim-pickup-locations'],
    staleTime: 60 * 60_000,
    queryFn: async ({ signal }) =>
      unwrap(await http.get('/sim-pickup-locations', simPickupLocationsResponse, { signal })),
  });
}

/**
 * /sim-kort/:lineId/nytt-kort: a new SIM for a number — an eSIM (also the switch from a card),
 * or a card picked up at a shop or sent home. Placing it is a `sim_change` order that
 * provisioning carries out over days (SPEC §4); the order screen follows it. The old SIM works
 * until the new one is active (ADR 0055).
 */
export function SimReplacementScreen() {
  const { lineId = '' } = useParams();
  const { t } = useTranslation();
  const { http } = useAppServices();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const sim = useSimQuery(lineId);
  // A locked number gets no new SIM (ADR 0076): say so before the password is asked for. The
  // API refuses it all the same (NUMBER_LOCKED), also when this read has not answered.
  const locked = useProtectionQuery(lineId).data?.lock.state;
  const isLocked = locked === 'locked' || locked === 'unlocking';
  const [choice, setChoice] = useState<Choice>('esim');
  const [shop, setShop] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const stepUp = useStepUp();
  // One Idempotency-Key per attempt: a retry after a lost answer cannot order twice.
  const key = useRef<string | null>(null);

  const homeAddress =
    user?.address && user.postCode && user.city
      ? `${user.address}, ${user.postCode} ${user.city}`
      : null;
  const ready = choice === 'esim' || (choice === 'pickup' ? shop !== null : homeAddress !== null);

  const submit = async () => {
    if (!ready || pending || !sim.data) return;
    const order: SimReplacementRequest = {
      eSim: choice === 'esim',
      simPickupLocationId: choice === 'pickup' ? shop : null,
      sendHome: choice === 'home',
    };
    setPending(true);
    setError(null);
    // Step-up (ADR 0076): the password again (or an SMS code) goes with the order.
    const number = formatPhoneNumber(sim.data.phoneNumber);
    const result = await stepUp({
      title: t('sim.replace.confirmTitle'),
      message:
        user?.hasPassword === false
          ? t('sim.replace.confirmMessageCode', { number })
          : t('sim.replace.confirmMessage', { number }),
      confirmLabel: t('sim.replace.submit'),
      busyLabel: t('sim.replace.placing'),
      tone: 'primary',
      submit: async (proof) => {
        key.current ??= crypto.randomUUID();
        const answer = await orderSimReplacement(http, lineId, { ...order, ...proof }, key.current);
        if (!answer.ok && answer.error.status !== 0) key.current = null;
        return answer;
      },
    });
    setPending(false);
    if (!result) return;
    if (!result.ok) {
      setError(result.error);
      return;
    }
    key.current = null;
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    void navigate(href(ROUTES.order, { orderId: result.data.order.id }), { replace: true });
  };

  const body = () => {
    if (sim.data === undefined) return <QueryPending query={sim} />;
    const current = sim.data;
    return (
      <form
        className="flex flex-col gap-5"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="text-body text-mist-700">
          {t('sim.replace.intro', { number: formatPhoneNumber(current.phoneNumber) })}
        </p>
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-lead font-bold text-ocean-950">
            {t('sim.replace.how')}
          </legend>
          <ChoiceCard
            name="delivery"
            checked={choice === 'esim'}
            onSelect={() => setChoice('esim')}
            title={current.simType === 'esim' ? t('sim.replace.newEsim') : t('sim.replace.toEsim')}
            body={t('sim.replace.esimBody')}
          />
          <ChoiceCard
            name="delivery"
            checked={choice === 'pickup'}
            onSelect={() => setChoice('pickup')}
            title={t('sim.replace.pickup')}
            body={t('sim.replace.pickupBody')}
          />
          <ChoiceCard
            name="delivery"
            checked={choice === 'home'}
            onSelect={() => setChoice('home')}
            title={t('sim.replace.home')}
            body={homeAddress ?? t('sim.replace.noAddress')}
          />
        </fieldset>
        {choice === 'pickup' && <PickupShops selected={shop} onSelect={setShop} />}
        {current.pendingOrderId && <Alert tone="warning">{t('sim.replace.alreadyPending')}</Alert>}
        {isLocked && !error && (
          <Alert tone="warning">
            {t('sim.replace.locked')}
            <LockLink lineId={lineId} />
          </Alert>
        )}
        {error && (
          <Alert tone="error">
            {errorMessage(error)}
            {error.code === 'NUMBER_LOCKED' && <LockLink lineId={lineId} />}
          </Alert>
        )}
        <p className="text-caption text-mist-500">{t('sim.replace.oldStops')}</p>
        <Button type="submit" block size="lg" loading={pending} disabled={!ready || isLocked}>
          {t('sim.replace.submit')}
        </Button>
      </form>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('sim.replace.title')} back />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** The way to the number's lock screen, where it can be unlocked. */
function LockLink({ lineId }: { lineId: string }) {
  const { t } = useTranslation();
  return (
    <Link to={href(ROUTES.numberLock, { lineId })} className="mt-1 block font-semibold underline">
      {t('sim.replace.lockLink')}
    </Link>
  );
}

function PickupShops({
  selected,
  onSelect,
}: {
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  const shops = usePickupLocations();
  if (shops.data === undefined)
    return (
      <QueryPending
        query={shops}
        failedMessage={t('sim.replace.shopsFailed')}
        loading={<Skeleton className="h-32 rounded-card" />}
      />
    );
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-lead font-bold text-ocean-950">{t('sim.replace.shop')}</legend>
      {shops.data.map((shop: SimPickupLocation) => (
        <ChoiceCard
          key={shop.id}
          name="shop"
          checked={selected === shop.id}
          onSelect={() => onSelect(shop.id)}
          title={shop.name}
          body={
            <>
              <span className="block">{`${shop.address}, ${shop.postCode} ${shop.city}`}</span>
              {shop.openingHours.map((line) => (
                <span key={line} className="block text-mist-500">
                  {line}
                </span>
              ))}
            </>
          }
        />
      ))}
    </fieldset>
  );
}

/** A radio button drawn as a card with a title and a line or two of text. */
function ChoiceCard({
  name,
  checked,
  onSelect,
  title,
  body,
}: {
  name: string;
  checked: boolean;
  onSelect: () => void;
  title: string;
  body: ReactNode;
}) {
  return (
    <label
      className={cx(
        'flex cursor-pointer items-start gap-3 rounded-card bg-white p-4 shadow-card ring-2 transition-colors',
        checked ? 'ring-fjord-500' : 'ring-transparent',
      )}
    >
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={onSelect}
        className="mt-1 size-5 shrink-0 accent-fjord-600"
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="text-body font-semibold text-mist-900">{title}</span>
        <span className="text-caption text-mist-600">{body}</span>
      </span>
    </label>
  );
}
