import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { memberPriceAt } from '@alda/contract/rules/family';
import type { Plan } from '@alda/contract/schemas/plans';
import { Price } from '@/shared/account/price';
import { useFormatters } from '@/shared/format/use-formatters';
import { FamilyIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { Switch } from '@/shared/ui/switch';
import { PhoneIcon } from '@/shared/ui/icons';
import { ChoiceCard, ChoiceGroup, StepHeading } from './choice';
import type { SignupDraft, SignupPlanType } from './signup-draft';
import { SIGNUP_PLAN_TYPES } from './signup-draft';

type Update = (patch: Partial<SignupDraft>) => void;

/** `/legg-hald-afturat`, first: an individual or a family plan. */
export function TypeStep({
  value,
  onChoose,
}: {
  value: SignupPlanType | null;
  onChoose: (type: SignupPlanType) => void;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="signup-type" className="flex flex-col gap-4">
      <StepHeading id="signup-type">{t('signup.type.heading')}</StepHeading>
      <ChoiceGroup label={t('signup.type.heading')}>
        {SIGNUP_PLAN_TYPES.map((type) => (
          <ChoiceCard
            key={type}
            selected={value === type}
            onSelect={() => onChoose(type)}
            icon={
              type === 'family_plan' ? (
                <FamilyIcon className="size-5" />
              ) : (
                <PhoneIcon className="size-5" />
              )
            }
            title={t(`planTypes.${type}`)}
            hint={t(`signup.type.${type}`)}
          />
        ))}
      </ChoiceGroup>
    </section>
  );
}

/**
 * Step 1: the plans of the type, each with its data and monthly price with and without VAT
 * (SPEC §9); on a family plan the price of each further member as `+{price} kr.` (SPEC §4); the EU
 * package of the chosen plan with its price.
 */
export function PlanStep({
  plans,
  draft,
  update,
  onNext,
}: {
  plans: Plan[];
  draft: SignupDraft;
  update: Update;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [missing, setMissing] = useState(false);
  const chosen = plans.find((p) => p.planId === draft.planId) ?? null;

  if (plans.length === 0) return <Alert tone="info">{t('signup.plan.none')}</Alert>;

  return (
    <section aria-labelledby="signup-plan" className="flex flex-col gap-4">
      <StepHeading id="signup-plan">{t('signup.plan.heading')}</StepHeading>
      <ChoiceGroup label={t('signup.plan.heading')}>
        {plans.map((plan) => (
          <ChoiceCard
            key={plan.planId}
            selected={plan.planId === draft.planId}
            onSelect={() => {
              update({
                planId: plan.planId,
                euPackage: plan.euPackage ? draft.euPackage : false,
              });
              setMissing(false);
            }}
            title={plan.name}
            hint={
              <span className="flex flex-col gap-2">
                <span>
                  {plan.type === 'family_plan'
                    ? t('signup.plan.familyData', {
                        data: f.data(plan.dataMb),
                        count: plan.maxMembers,
                      })
                    : t('signup.plan.data', { data: f.data(plan.dataMb) })}
                </span>
                <Price price={memberPriceAt(plan.memberPrices, 0)} perMonth />
                {plan.type === 'family_plan' && plan.maxMembers > 1 && <MemberPrices plan={plan} />}
              </span>
            }
          />
        ))}
      </ChoiceGroup>
      {missing && (
        <p role="alert" className="text-caption font-medium text-danger-600">
          {t('signup.plan.chooseFirst')}
        </p>
      )}
      {chosen?.euPackage && (
        <div className="rounded-card bg-white p-5 shadow-card">
          <Switch
            label={t('signup.plan.euPackage')}
            description={t('signup.plan.euPackageHint', {
              price: f.kr(chosen.euPackage.price),
              data: f.data(chosen.euPackage.dataMb),
            })}
            checked={draft.euPackage}
            onChange={(event) => update({ euPackage: event.target.checked })}
          />
        </div>
      )}
      <Button
        block
        onClick={() => {
          if (!chosen) return setMissing(true);
          onNext();
        }}
      >
        {t('signup.next')}
      </Button>
    </section>
  );
}

/** SPEC §4: each further member's price, `+{price} kr.` (member 2 is the first after the owner). */
function MemberPrices({ plan }: { plan: Plan }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <span className="flex flex-col gap-1">
      <span className="font-semibold text-mist-700">{t('signup.plan.memberPrices')}</span>
      <span className="flex flex-wrap gap-1.5">
        {Array.from({ length: plan.maxMembers - 1 }, (_, i) => i + 1).map((index) => (
          <span
            key={index}
            className="rounded-full bg-mist-100 px-2.5 py-0.5 text-caption whitespace-nowrap text-mist-700 tabular-nums"
          >
            {t('signup.plan.memberPrice', {
              n: index + 1,
              price: f.kr(memberPriceAt(plan.memberPrices, index), {
                sign: 'always',
                decimals: 'auto',
              }),
            })}
          </span>
        ))}
      </span>
    </span>
  );
}
