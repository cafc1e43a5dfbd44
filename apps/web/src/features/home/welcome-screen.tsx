import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ROAMING } from '@alda/contract/constants';
import { useSession } from '@/shared/services/app-services';
import { AldaMark, CallIcon, DataIcon, MessageIcon, PlaneIcon } from '@/shared/ui/icons';

/** /valkomin (home-welcome): a signed-in customer without a subscription. */
export function WelcomeScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <div className="pt-safe bg-linear-to-br from-ocean-900 via-ocean-800 to-fjord-700 text-white">
        <div className="px-safe flex flex-col gap-3 pt-8 pb-12">
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
      <div className="px-safe -mt-6 flex flex-col gap-5">
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
          <ul className="flex flex-col gap-2">
            <Fact icon={<CallIcon className="size-5" />}>
              {t('welcome.roaming.calls', { hours: ROAMING.callHours })}
            </Fact>
            {ROAMING.freeSms && (
              <Fact icon={<MessageIcon className="size-5" />}>{t('welcome.roaming.sms')}</Fact>
            )}
            <Fact icon={<DataIcon className="size-5" />}>
              {t('welcome.roaming.data', { gb: ROAMING.dataGb })}
            </Fact>
          </ul>
        </section>
      </div>
    </main>
  );
}

function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-center gap-3 rounded-2xl bg-mist-50 px-4 py-3 text-body font-semibold text-mist-900">
      <span className="text-fjord-600">{icon}</span>
      {children}
    </li>
  );
}
