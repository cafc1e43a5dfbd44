import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '@alda/contract/constants';
import { useUnreadNotifications } from '@/shared/api/notifications-unread';
import { useLocale } from '@/shared/i18n/use-locale';
import { useLogout } from '@/shared/services/use-logout';
import { BagIcon, ClockIcon, LayersIcon, SimIcon, WalletIcon } from '@/shared/ui/account-icons';
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
import { ROUTES } from '@/shared/config/paths';

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
            to={ROUTES.notifications}
            icon={<InfoIcon className="size-5" />}
            label={t('menu.notifications')}
            value={
              unread > 0 ? (
                <Badge tone="accent">{t('notifications.badge', { count: unread })}</Badge>
              ) : undefined
            }
          />
          <ListRowLink
            to={ROUTES.orders}
            icon={<BagIcon className="size-5" />}
            label={t('menu.orders')}
          />
          <ListRowLink
            to={ROUTES.plans}
            icon={<LayersIcon className="size-5" />}
            label={t('menu.plans')}
          />
          <ListRowLink
            to={ROUTES.addSubscription}
            icon={<SimIcon className="size-5" />}
            label={t('signup.menuAdd')}
          />
          <ListRowLink
            to={ROUTES.activity}
            icon={<ClockIcon className="size-5" />}
            label={t('menu.activity')}
          />
          <ListRowLink
            to={ROUTES.receipts}
            icon={<ReceiptIcon className="size-5" />}
            label={t('menu.receipts')}
          />
          <ListRowLink
            to={ROUTES.monthlyPrice}
            icon={<WalletIcon className="size-5" />}
            label={t('billing.title')}
          />
        </ListGroup>
        <ListGroup title={t('menu.about')}>
          <ListRowLink
            to={ROUTES.terms}
            icon={<DocumentIcon className="size-5" />}
            label={t('menu.terms')}
          />
          <ListRowLink
            to={ROUTES.privacy}
            icon={<ShieldIcon className="size-5" />}
            label={t('menu.privacy')}
          />
        </ListGroup>
        <ListGroup title={t('menu.settings')}>
          <ListRowLink
            to={ROUTES.language}
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
