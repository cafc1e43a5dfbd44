import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '@alda/contract/constants';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { useSubscriptionsQuery } from '@/shared/api/account-queries';
import { offersToMe, useLineHandoversQuery } from '@/shared/api/line-handovers';
import { useUnreadNotifications } from '@/shared/api/notifications-unread';
import { useSupportUnread } from '@/shared/support/support-queries';
import { useLocale } from '@/shared/i18n/use-locale';
import { useThemeChoice } from '@/shared/theme/theme-store';
import { useLogout } from '@/shared/services/use-logout';
import {
  BagIcon,
  ClockIcon,
  FamilyIcon,
  GiftIcon,
  LayersIcon,
  SimIcon,
  WalletIcon,
} from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import { BillIcon } from '@/shared/ui/bill-icon';
import {
  DocumentIcon,
  PhoneIcon,
  GlobeIcon,
  InfoIcon,
  LogoutIcon,
  MessageIcon,
  ReceiptIcon,
  ShieldIcon,
  ThemeIcon,
} from '@/shared/ui/icons';
import { ListGroup, ListRowButton, ListRowLink } from '@/shared/ui/list-row';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * Which moves of the user's own current number the menu offers (ADR 0056): out of a family they
 * do not own onto their own plan, and into a family plan of theirs from an individual plan or
 * from someone else's family.
 */
export function ownNumberMoves(subscriptions: SubscriptionsResponse | undefined) {
  const account = subscriptions?.currentAccount ?? null;
  const memberOfOthers = account?.type === 'family_plan' && subscriptions?.isOwner === false;
  return {
    toIndividual: memberOfOthers,
    toFamily: memberOfOthers || account?.type === 'individual_plan',
  };
}

/** /menu: information, settings and logout; numbers offered to the user and moving one's own. */
export function MenuScreen() {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const [themeChoice] = useThemeChoice();
  const logout = useLogout();
  const unread = useUnreadNotifications();
  const supportUnread = useSupportUnread();
  const subscriptions = useSubscriptionsQuery();
  const handovers = useLineHandoversQuery();
  const offers = offersToMe(handovers.data);
  const moves = ownNumberMoves(subscriptions.data);

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('menu.title')} />
      <ScreenBody>
        {offers.length > 0 && (
          <ListGroup title={t('transfers.menu.offers')}>
            {offers.map((offer) => (
              <ListRowLink
                key={offer.id}
                to={href(ROUTES.handover, { id: offer.id })}
                icon={<GiftIcon className="size-5" />}
                label={t('transfers.menu.offer', {
                  name: `${offer.from.firstname} ${offer.from.lastname}`.trim(),
                  number: formatPhoneNumber(offer.phoneNumber),
                })}
              />
            ))}
          </ListGroup>
        )}
        <ListGroup title={t('menu.account')}>
          <ListRowLink
            to={ROUTES.notifications}
            icon={<InfoIcon className="size-5" />}
            label={t('menu.notifications')}
            value={
              unread > 0 ? (
                // The count in a small pill (the whole phrase did not fit a phone's row in
                // English); screen readers hear the phrase.
                <Badge tone="accent">
                  <span aria-hidden="true">{unread}</span>
                  <span className="sr-only">{t('notifications.badge', { count: unread })}</span>
                </Badge>
              ) : undefined
            }
          />
          <ListRowLink
            to={ROUTES.support}
            icon={<MessageIcon className="size-5" />}
            label={t('support.title')}
            value={
              supportUnread > 0 ? (
                <Badge tone="accent">
                  <span aria-hidden="true">{supportUnread}</span>
                  <span className="sr-only">{t('support.badge', { count: supportUnread })}</span>
                </Badge>
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
          {moves.toIndividual && (
            <ListRowLink
              to={ROUTES.transferToIndividual}
              icon={<PhoneIcon className="size-5" />}
              label={t('transfers.menu.toIndividual')}
            />
          )}
          {moves.toFamily && (
            <ListRowLink
              to={ROUTES.transferToFamily}
              icon={<FamilyIcon className="size-5" />}
              label={t('transfers.menu.toFamily')}
            />
          )}
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
            to={ROUTES.bills}
            icon={<BillIcon className="size-5" />}
            label={t('menu.bills')}
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
          <ListRowLink
            to={ROUTES.theme}
            icon={<ThemeIcon className="size-5" />}
            label={t('menu.appearance')}
            value={t(`appearance.${themeChoice}`)}
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
