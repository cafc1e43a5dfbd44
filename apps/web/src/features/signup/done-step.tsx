import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { SimDelivery } from '@alda/contract/schemas/provisioning';
import { href, ROUTES } from '@/shared/config/paths';
import { ButtonLink } from '@/shared/ui/button';
import { CheckIcon } from '@/shared/ui/icons';

/** What the thank-you state needs once the draft is gone (router state of `?stig=takk`). */
export interface PlacedSummary {
  orderId: string;
  delivery: SimDelivery;
  /** Porting: the number moving from the other provider; a new number otherwise. */
  porting: boolean;
  phoneNumber: string;
  shopName: string | null;
  address: string | null;
}

export function isPlacedSummary(value: unknown): value is PlacedSummary {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PlacedSummary).orderId === 'string' &&
    typeof (value as PlacedSummary).delivery === 'string'
  );
}

/**
 * After the order: thanks, and what happens next and when (SPEC §4 "Subscription processing can
 * take days"; ADR 0055 steps): the eSIM or the card, porting's date, the first charge.
 */
export function DoneStep({ summary }: { summary: PlacedSummary }) {
  const { t } = useTranslation();
  const next: string[] = [t('signup.done.processing')];
  if (summary.delivery === 'esim') next.push(t('signup.done.esim'));
  if (summary.delivery === 'pickup')
    next.push(t('signup.done.pickup', { shop: summary.shopName ?? '' }));
  if (summary.delivery === 'home')
    next.push(t('signup.done.home', { address: summary.address ?? '' }));
  if (summary.delivery === 'own_card') next.push(t('signup.done.ownCard'));
  if (summary.porting)
    next.push(t('signup.done.porting', { number: formatPhoneNumber(summary.phoneNumber) }));
  else next.push(t('signup.done.newNumber', { number: formatPhoneNumber(summary.phoneNumber) }));
  next.push(t('signup.done.firstCharge'));

  return (
    <section aria-labelledby="signup-done" className="flex flex-col gap-5" aria-live="polite">
      <div className="flex flex-col items-center gap-3 rounded-card bg-white px-6 py-8 text-center shadow-card">
        <span className="flex size-16 items-center justify-center rounded-full bg-success-50 text-success-600">
          <CheckIcon className="size-8" strokeWidth={2.4} />
        </span>
        <h2 id="signup-done" className="text-title font-bold text-ocean-950">
          {t('signup.done.title')}
        </h2>
        <p className="text-body text-mist-700">{t('signup.done.lead')}</p>
      </div>
      <div className="flex flex-col gap-3 rounded-card bg-white p-5 shadow-card">
        <h3 className="text-lead font-bold text-ocean-950">{t('signup.done.nextTitle')}</h3>
        <ol className="flex flex-col gap-3">
          {next.map((line, index) => (
            <li key={line} className="flex items-start gap-3 text-body text-mist-700">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-caption font-bold text-ocean-800">
                {index + 1}
              </span>
              <span className="pt-0.5">{line}</span>
            </li>
          ))}
        </ol>
      </div>
      <div className="flex flex-col gap-3">
        {/* The order with its provisioning steps: what it waits for and when (ADR 0055). */}
        <ButtonLink to={href(ROUTES.order, { orderId: summary.orderId })} block>
          {t('signup.done.seeOrder')}
        </ButtonLink>
        <ButtonLink to={ROUTES.home} variant="secondary" block>
          {t('signup.done.toHome')}
        </ButtonLink>
      </div>
    </section>
  );
}
