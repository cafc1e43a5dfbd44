import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useI18n } from '@/shared/i18n/use-i18n';
import { z } from 'zod/mini';
import { DATA_AMOUNT_STEPS_MB } from '@alda/contract/constants';
import { formatData } from '@alda/contract/format/data';
import { counterpartProblem, giftProblem, maxGiftMb } from '@alda/contract/rules/data-transfer';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { normalizePhoneNumber, phoneNumberInput } from '@alda/contract/rules/phone';
import type { DataTransferKind } from '@alda/contract/schemas/data-transfers';
import type { Member } from '@alda/contract/schemas/subscriptions';
import { accountKeys } from '@/shared/api/account-data';
import { useSubscriptionsQuery } from '@/shared/api/account-queries';
import type { ApiError } from '@/shared/api/http';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import { useFieldMessage } from '@/shared/forms/field-message';
import { currentLocale } from '@/shared/i18n/i18n';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { useToast } from '@/shared/ui/toast/toast-context';
import { dataTransfersApi } from './data-transfers-api';
import { ROUTES } from '@/shared/config/paths';

/** Codes about the other number: shown under the number field. */
const NUMBER_CODES = new Set(['SELF_REQUEST', 'NUMBER_NOT_FOUND', 'REQUEST_NOT_ALLOWED']);

const formSchema = z.object({
  phoneNumber: phoneNumberInput,
  dataAmount: z.number({ error: 'REQUIRED' }).check(z.int(), z.positive('REQUIRED')),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

/** /gev-data and /bidja-um-data: give data to, or ask for data from, another number. */
export function DataTransferScreen({ kind }: { kind: DataTransferKind }) {
  const { t } = useTranslation();
  const query = useSubscriptionsQuery();
  const member = query.data?.currentAccount?.currentMember ?? null;
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t(`dataSharing.${kind}.title`)} back={ROUTES.home} />
      <ScreenBody>
        {query.isPending ? (
          <DetailSkeleton />
        ) : query.isError && !member ? (
          <QueryError
            error={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : member ? (
          <TransferForm kind={kind} member={member} />
        ) : (
          <Alert tone="info">{t('dataSharing.noLine')}</Alert>
        )}
      </ScreenBody>
    </main>
  );
}

export function GiveDataScreen() {
  return <DataTransferScreen kind="gift" />;
}

export function RequestDataScreen() {
  return <DataTransferScreen kind="request" />;
}

function TransferForm({ kind, member }: { kind: DataTransferKind; member: Member }) {
  const { t } = useTranslation();
  const i18n = useI18n();
  const locale = currentLocale(i18n);
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  const isGift = kind === 'gift';
  // A request may ask for the largest amount offered; a gift only for what the giver may give.
  const maxMb = isGift ? maxGiftMb(member) : Math.max(...DATA_AMOUNT_STEPS_MB);
  const steps = DATA_AMOUNT_STEPS_MB.filter((mb) => mb <= maxMb);
  const blocked =
    isGift && steps.length === 0 ? giftProblem(member, DATA_AMOUNT_STEPS_MB[0]) : null;
  const fmt = (mb: number) => formatData(mb, locale);

  const {
    register,
    handleSubmit,
    setValue,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    mode: 'all',
    resolver: zodResolver(formSchema),
    defaultValues: { phoneNumber: '', dataAmount: 0 },
  });
  const amount = useWatch({ control, name: 'dataAmount' });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const self = counterpartProblem(member.phoneNumber, values.phoneNumber);
    if (self) {
      setError('phoneNumber', { type: 'rule', message: self }, { shouldFocus: true });
      return;
    }
    const problem = isGift ? giftProblem(member, values.dataAmount) : null;
    if (problem) {
      setFailure({ code: problem, message: problem, status: 0 });
      return;
    }
    const confirmed = await modal.confirm({
      title: t(`dataSharing.${kind}.confirmTitle`),
      message: t(`dataSharing.${kind}.confirmBody`, {
        amount: fmt(values.dataAmount),
        number: formatPhoneNumber(values.phoneNumber),
      }),
      confirmLabel: t(`dataSharing.${kind}.confirm`),
    });
    if (!confirmed) return;
    const result = await dataTransfersApi.create(
      http,
      {
        kind,
        fromPhoneNumber: member.phoneNumber,
        phoneNumber: values.phoneNumber,
        dataAmount: values.dataAmount,
      },
      idempotencyKey,
    );
    if (!result.ok) {
      // A new attempt is a new transfer; the key only guards against a repeated send.
      setIdempotencyKey(crypto.randomUUID());
      if (NUMBER_CODES.has(result.error.code)) {
        setError(
          'phoneNumber',
          { type: 'server', message: result.error.code },
          { shouldFocus: true },
        );
      } else {
        setFailure(result.error);
      }
      return;
    }
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    toast.show({
      type: 'info',
      message: t(`dataSharing.${kind}.done`, {
        amount: fmt(values.dataAmount),
        number: formatPhoneNumber(values.phoneNumber),
      }),
    });
    void navigate(ROUTES.home);
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-5">
      <Alert tone="info" title={t(`dataSharing.${kind}.limitsTitle`)}>
        {isGift
          ? t('dataSharing.gift.limits', {
              max: fmt(maxMb),
              given: fmt(member.givenData.current),
              ceiling: fmt(member.givenData.max),
              remaining: fmt(member.dataRemaining.domestic),
            })
          : t('dataSharing.request.limits', { max: fmt(maxMb) })}
      </Alert>
      {blocked && <Alert tone="warning">{errorMessage({ code: blocked, message: blocked })}</Alert>}
      <TextField
        label={t(`dataSharing.${kind}.number`)}
        hint={t('dataSharing.numberHint')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        error={fieldMessage(errors.phoneNumber?.message)}
        {...register('phoneNumber', {
          onBlur: (event: React.FocusEvent<HTMLInputElement>) =>
            setValue('phoneNumber', normalizePhoneNumber(event.target.value), {
              shouldValidate: true,
            }),
        })}
      />
      <fieldset disabled={blocked !== null}>
        <legend className="mb-1 text-body font-semibold text-ocean-950">
          {t('dataSharing.amount')}
        </legend>
        <p className="mb-3 text-caption text-mist-600">
          {t('dataSharing.amountMax', { max: fmt(maxMb) })}
        </p>
        <div role="radiogroup" className="grid grid-cols-3 gap-2">
          {steps.map((mb) => (
            <button
              key={mb}
              type="button"
              role="radio"
              aria-checked={amount === mb}
              onClick={() => setValue('dataAmount', mb, { shouldValidate: true })}
              className={cx(
                'rounded-2xl px-2 py-3 text-body font-semibold shadow-card transition-colors',
                amount === mb
                  ? 'bg-ocean-900 text-white'
                  : 'bg-white text-ocean-900 hover:bg-mist-100',
              )}
            >
              {fmt(mb)}
            </button>
          ))}
        </div>
        {errors.dataAmount && (
          <p className="mt-2 text-caption text-danger-600">{t('dataSharing.amountRequired')}</p>
        )}
      </fieldset>
      {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
      <Button type="submit" block loading={isSubmitting} disabled={blocked !== null}>
        {t(`dataSharing.${kind}.submit`)}
      </Button>
    </form>
  );
}
