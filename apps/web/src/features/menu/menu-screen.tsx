import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '@alda/contract/constants';
import { useUnreadNotifications } from '@/shared/api/notifications-unread';
import { ACCOUNT_PATHS } from '@/shared/config/account-paths';
import { BILLING_PATHS } from '@/shared/config/billing-paths';
import { SHARING_PATHS } from '@/shared/config/data-sharing-paths';
import { FLOWS } from '@/shared/config/flows';
import { PATHS } from '@/shared/config/paths';
import { useLocale } from '@/shared/i18n/use-locale';
import { useLogout } from '@/shared/services/use-logout';
import { BagIcon, ClockIcon, LayersIcon, WalletIcon } from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import {
  DocumentIcon,
  GlobeIcon,
  InfoIcon,
  LogoutIcon,
  ReceiptIcon,
  ShieldIcon,
} from '@/shared/ui/icons';
import { ListGroup, ListRowButton, ListRowLink } from '@/shared/ui/list-row';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';

/** /menu: information, settings and logout. */
export function MenuScreen() {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const logout = useLogout();
  const unread = useUnreadNotifications();

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('menu.title')} />
      <ScreenBody>
        <ListGroup title={t('menu.account')}>
          <ListRowLink
            to={SHARING_PATHS.notifications}
            icon={<InfoIcon className="size-5" />}
            label={t('menu.notifications')}
            value={
              unread > 0 ? (
                <Badge tone="accent">{t('notifications.badge', { count: unread })}</Badge>
              ) : undefined
            }
          />
          <ListRowLink
            to={ACCOUNT_PATHS.orders}
            icon={<BagIcon className="size-5" />}
            label={t('menu.orders')}
          />
          <ListRowLink
            to={ACCOUNT_PATHS.plans}
            icon={<LayersIcon className="size-5" />}
            label={t('menu.plans')}
          />
          <ListRowLink
            to={SHARING_PATHS.activity}
            icon={<ClockIcon className="size-5" />}
            label={t('menu.activity')}
          />
          {FLOWS.receipts && (
            <ListRowLink
              to={PATHS.receipts}
              icon={<ReceiptIcon className="size-5" />}
              label={t('menu.receipts')}
            />
          )}
          <ListRowLink
            to={BILLING_PATHS.monthlyPrice}
            icon={<WalletIcon className="size-5" />}
            label={t('billing.title')}
          />
        </ListGroup>
        <ListGroup title={t('menu.about')}>
          <ListRowLink
            to={PATHS.terms}
            icon={<DocumentIcon className="size-5" />}
            label={t('menu.terms')}
          />
          <ListRowLink
            to={PATHS.privacy}
            icon={<ShieldIcon className="size-5" />}
            label={t('menu.privacy')}
          />
        </ListGroup>
        <ListGroup title={t('menu.settings')}>
          <ListRowLink
            to={PATHS.language}
            icon={<GlobeIcon className="size-5" />}
            label={t('menu.language')}
            value={t(`language.${locale}`)}
          />
          <ListRowButton
            onClick={() => void logout()}
            icon={<LogoutIcon className="size-5" />}
            label={t('menu.logout')}
            tone="danger"
          />
        </ListGroup>
        <p className="text-center text-caption text-mist-500">
          {t('menu.version', { version: APP_VERSION })}
        </p>
      </ScreenBody>
    </main>
  );
}
