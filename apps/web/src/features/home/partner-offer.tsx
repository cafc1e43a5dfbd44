import { useTranslation } from 'react-i18next';
import { PartnerAppBadge, useAppPromotion } from '@/shared/ui/app-promotion';
import { ChevronRightIcon } from '@/shared/ui/icons';

/** The 2-for-1 partner-offers app (SPEC §1), promoted on home; opens the store-links modal. */
export function PartnerOffer() {
  const { t } = useTranslation();
  const promote = useAppPromotion();
  return (
    <button
      type="button"
      onClick={() => void promote()}
      className="flex w-full items-center gap-4 rounded-card bg-linear-to-br from-puffin-50 to-white p-4 text-left shadow-card ring-1 ring-puffin-100 ring-inset transition-colors hover:from-puffin-100"
    >
      <PartnerAppBadge size="md" />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="text-body font-bold text-mist-900">{t('home.partner.title')}</span>
        <span className="text-caption text-mist-600">{t('home.partner.body')}</span>
      </span>
      <ChevronRightIcon className="size-5 shrink-0 text-puffin-500" />
    </button>
  );
}
