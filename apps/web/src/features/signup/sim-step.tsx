import { useEffect, useRef, useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';
import { useTranslation } from 'react-i18next';
import type { User } from '@alda/contract/schemas/auth';
import { simcardNumber } from '@alda/contract/rules/iccid';
import { shippingAddress, type ShippingAddress } from '@alda/contract/schemas/signup';
import { QueryError } from '@/shared/account/screen-states';
import { cityMatchesPostCode, cityMismatch } from '@/shared/forms/address-rule';
import { useFieldMessage } from '@/shared/forms/field-message';
import { bindingOf, LocalityPicker } from '@/shared/forms/locality-picker';
import { useRevalidate } from '@/shared/forms/use-revalidate';
import { useSession } from '@/shared/services/app-services';
import { SimIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { Skeleton } from '@/shared/ui/skeleton';
import { TextField } from '@/shared/ui/text-field';
import { ChoiceCard, ChoiceGroup, StepHeading } from './choice';
import { fieldKey, IccidField } from './number-step';
import { usePickupLocationsQuery } from './signup-api';
import type { SignupDraft, SimSource } from './signup-draft';

type Update = (patch: Partial<SignupDraft>) => void;

/** The address form: the contract's shipping address plus the postal code ↔ place rule. */
export const shippingForm = shippingAddress.check(
  z.refine((v) => cityMatchesPostCode(v.postCode, v.city), cityMismatch),
);

/** The address on the profile, the first suggestion for sending the SIM home. */
export function profileAddress(user: User | null): ShippingAddress {
  return { address: user?.address ?? '', postCode: user?.postCode ?? '', city: user?.city ?? '' };
}

const SOURCES: readonly SimSource[] = ['LOCATION', 'HOME', 'OWN_CARD'];

/**
 * Step 3: eSIM, or a physical SIM picked up at a shop, sent home to the address (from the profile,
 * editable), or a card the customer already holds (SPEC §3 "Signup state", ADR 0055).
 */
export function SimStep({
  draft,
  update,
  onNext,
}: {
  draft: SignupDraft;
  update: Update;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const fieldMessage = useFieldMessage();
  const [tried, setTried] = useState(false);
  const [iccidTouched, setIccidTouched] = useState(false);
  const validateAddress = useRef<() => Promise<boolean>>(async () => true);
  const physical = draft.simType === 'PHYSICAL';
  const locations = usePickupLocationsQuery(physical && draft.simSource === 'LOCATION');
  const iccidError =
    tried || iccidTouched ? fieldKey(simcardNumber, draft.simcardNumber) : undefined;

  const missing = (() => {
    if (draft.simType === null) return t('signup.sim.chooseFirst');
    if (!physical) return null;
    if (draft.simSource === null) return t('signup.sim.chooseSource');
    if (draft.simSource === 'LOCATION' && !draft.pickupLocationId)
      return t('signup.sim.chooseShop');
    return null;
  })();

  const next = async () => {
    setTried(true);
    if (missing) return;
    if (physical && draft.simSource === 'OWN_CARD' && fieldKey(simcardNumber, draft.simcardNumber))
      return;
    if (physical && draft.simSource === 'HOME' && !(await validateAddress.current())) return;
    onNext();
  };

  const chooseSource = (source: SimSource) =>
    update({
      simSource: source,
      // Sending home starts from the profile's address until the customer edits it.
      ...(source === 'HOME' && draft.shipping === null ? { shipping: profileAddress(user) } : {}),
    });

  return (
    <section aria-labelledby="signup-sim" className="flex flex-col gap-4">
      <StepHeading id="signup-sim">{t('signup.sim.heading')}</StepHeading>
      <ChoiceGroup label={t('signup.sim.heading')}>
        <ChoiceCard
          selected={draft.simType === 'ESIM'}
          onSelect={() => update({ simType: 'ESIM' })}
          icon={<SimIcon className="size-5" />}
          title={t('sim.ESIM')}
          hint={t('signup.sim.esimHint')}
        />
        <ChoiceCard
          selected={physical}
          onSelect={() => update({ simType: 'PHYSICAL' })}
          icon={<SimIcon className="size-5" />}
          title={t('sim.PHYSICAL')}
          hint={t('signup.sim.physicalHint')}
        />
      </ChoiceGroup>

      {draft.simType === 'ESIM' && (
        <details className="rounded-2xl bg-white px-4 py-3 text-body shadow-card">
          <summary className="cursor-pointer font-semibold text-ocean-900">
            {t('signup.sim.esimHelpTitle')}
          </summary>
          <p className="mt-2 text-mist-700">{t('signup.sim.esimHelp')}</p>
        </details>
      )}

      {physical && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-body font-semibold text-ocean-950">
            {t('signup.sim.sourceLegend')}
          </legend>
          <ChoiceGroup label={t('signup.sim.sourceLegend')}>
            {SOURCES.map((source) => (
              <ChoiceCard
                key={source}
                selected={draft.simSource === source}
                onSelect={() => chooseSource(source)}
                title={t(`signup.sim.source.${source}`)}
                hint={t(`signup.sim.sourceHint.${source}`)}
              />
            ))}
          </ChoiceGroup>
        </fieldset>
      )}

      {physical && draft.simSource === 'LOCATION' && (
        <div className="flex flex-col gap-2">
          <h3 className="text-body font-semibold text-ocean-950">{t('signup.sim.shops')}</h3>
          {locations.data === undefined ? (
            locations.isError ? (
              <>
                <Alert tone="error">{t('signup.sim.shopsFailed')}</Alert>
                <QueryError
                  error={locations.error}
                  onRetry={() => void locations.refetch()}
                  retrying={locations.isFetching}
                />
              </>
            ) : (
              <div aria-busy="true" aria-label={t('app.loading')} className="flex flex-col gap-2">
                <Skeleton className="h-24 rounded-2xl" />
                <Skeleton className="h-24 rounded-2xl" />
              </div>
            )
          ) : (
            <ChoiceGroup label={t('signup.sim.shops')}>
              {locations.data.map((shop) => (
                <ChoiceCard
                  key={shop.id}
                  selected={draft.pickupLocationId === shop.id}
                  onSelect={() => update({ pickupLocationId: shop.id })}
                  title={shop.name}
                  hint={
                    <span className="flex flex-col gap-0.5">
                      <span>
                        {t('signup.sim.shopAddress', {
                          address: shop.address,
                          postCode: shop.postCode,
                          city: shop.city,
                        })}
                      </span>
                      {shop.openingHours.map((line) => (
                        <span key={line} className="text-mist-500">
                          {line}
                        </span>
                      ))}
                    </span>
                  }
                />
              ))}
            </ChoiceGroup>
          )}
        </div>
      )}

      {physical && draft.simSource === 'HOME' && (
        <HomeAddress
          initial={draft.shipping ?? profileAddress(user)}
          onChange={(shipping) => update({ shipping })}
          validateRef={validateAddress}
        />
      )}

      {physical && draft.simSource === 'OWN_CARD' && (
        <IccidField
          label={t('signup.sim.ownCardIccid')}
          value={draft.simcardNumber}
          onChange={(value) => update({ simcardNumber: value })}
          onBlur={() => setIccidTouched(true)}
          error={fieldMessage(iccidError)}
        />
      )}

      {tried && missing && (
        <p role="alert" className="text-caption font-medium text-danger-600">
          {missing}
        </p>
      )}
      <Button block onClick={() => void next()}>
        {t('signup.next')}
      </Button>
    </section>
  );
}

/** The address the SIM is sent to, validated like the profile's (contract, locality list). */
function HomeAddress({
  initial,
  onChange,
  validateRef,
}: {
  initial: ShippingAddress;
  onChange: (value: ShippingAddress) => void;
  validateRef: { current: () => Promise<boolean> };
}) {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const {
    register,
    control,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm({ resolver: zodResolver(shippingForm), mode: 'all', defaultValues: initial });
  const postCode = useController({ control, name: 'postCode' });
  const city = useController({ control, name: 'city' });
  useRevalidate(postCode.field.value, 'city', { trigger, getFieldState });
  const values = useWatch({ control });
  const report = useRef(onChange);
  useEffect(() => {
    report.current = onChange;
  }, [onChange]);
  useEffect(() => {
    report.current({
      address: values.address ?? '',
      postCode: values.postCode ?? '',
      city: values.city ?? '',
    });
  }, [values.address, values.postCode, values.city]);
  useEffect(() => {
    validateRef.current = () => trigger(undefined, { shouldFocus: true });
  }, [trigger, validateRef]);

  return (
    <fieldset className="flex flex-col gap-4 rounded-card bg-white p-5 shadow-card">
      <legend className="sr-only">{t('signup.sim.homeLegend')}</legend>
      <p className="text-body text-mist-700">{t('signup.sim.homeLead')}</p>
      <TextField
        label={t('forms.address')}
        autoComplete="street-address"
        error={fieldMessage(errors.address?.message)}
        {...register('address')}
      />
      <LocalityPicker
        postCode={bindingOf(postCode.field, fieldMessage(errors.postCode?.message))}
        city={bindingOf(city.field, fieldMessage(errors.city?.message))}
        postCodeInputRef={postCode.field.ref}
        cityInputRef={city.field.ref}
      />
    </fieldset>
  );
}
