import { useTranslation } from 'react-i18next';
import { PasskeyOfferSlot } from '@/shared/passkeys/passkey-offer-slot';
import { useSession } from '@/shared/services/app-services';
import { ButtonLink } from '@/shared/ui/button';
import { AldaMark, PlaneIcon } from '@/shared/ui/icons';
import { PartnerOffer } from './partner-offer';
import { RoamingFacts } from './roaming-card';
import { ROUTES } from '@/shared/config/paths';

/**
 * /valkomin (home-welcome, SPEC §2): a signed-in customer with no current account and no
 * orders. The guards send them here and back to home once the current account has a planId.
 */
export function WelcomeScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <div className="pt-safe rounded-b-[2rem] bg-linear-to-br from-ocean-900 via-ocean-800 to-fjord-700 text-white">
        <div className="px-safe flex flex-col gap-3 pt-8 pb-16">
          <AldaMark className="size-10 text-fjord-300" />
          <p className="text-caption font-semibold tracking-wide text-fjord-200 uppercase">
            {t('welcome.title')}
          </p>
          <h1 className="text-title font-bold">
            {t('welcome.heading', { name: user?.firstname ?? '' })}
          </h1>
          <p className="text-lead text-ocean-100">{t('welcome.body')}</p>
        </div>
      </div>
      <div className="px-safe -mt-8 flex flex-col gap-5">
        <section
          aria-labelledby="roaming-title"
          className="flex flex-col gap-4 rounded-card bg-white p-5 shadow-card"
        >
          <div className="flex items-center gap-3">
            <span className="flex size-11 items-center justify-center rounded-full bg-puffin-50 text-puffin-600">
              <PlaneIcon />
            </span>
            <h2 id="roaming-title" className="text-heading font-bold text-ocean-950">
              {t('welcome.roaming.title')}
            </h2>
          </div>
          <p className="text-body text-mist-600">{t('welcome.roaming.lead')}</p>
          <RoamingFacts />
        </section>
        <ButtonLink to={ROUTES.plans} variant="primary" block>
          {t('welcome.seePlans')}
        </ButtonLink>
        <PartnerOffer />
        {/* After the registration: a passkey for next time (ADR 0097). */}
        <PasskeyOfferSlot />
      </div>
    </main>
  );
}
