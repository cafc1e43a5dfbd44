import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { customerLines } from '@/shared/account/family';
import { useSubscriptionsQuery } from '@/shared/api/account-queries';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { SimSection } from '@/shared/sim/sim-section';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { useLogout } from '@/shared/services/use-logout';
import { WalletIcon } from '@/shared/ui/account-icons';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { KeyIcon, LogoutIcon, PencilIcon, PhoneIcon, TrashIcon } from '@/shared/ui/icons';
import { PasskeyIcon } from '@/shared/ui/passkey-icon';
import { ListGroup, ListRowButton, ListRowLink } from '@/shared/ui/list-row';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { deleteUser } from './profile-api';
import { DataExportSection } from './data-export-section';
import { NotificationSettingsCard } from './notification-settings';
import { UsageAlertSettings } from './usage-alert-settings';
import { ROUTES } from '@/shared/config/paths';

/**
 * /min-brukari (profile): the user's details, the usage alerts and the notification settings, the
 * SIM of each of their own numbers with its phone-book listing, the ways to change them, logout
 * and delete.
 */
export function ProfileScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const logout = useLogout();
  const deleteAccount = useDeleteUser();
  const subscriptions = useSubscriptionsQuery();
  // The SIM and phone-book listing of the customer's own numbers (SPEC §1); a member has no
  // manage screen, so this is where they find theirs.
  const ownLines = subscriptions.data ? customerLines(subscriptions.data) : [];
  if (!user) return null;

  const initials = `${user.firstname.charAt(0)}${user.lastname.charAt(0)}`.toUpperCase();
  const place = [user.postCode, user.city].filter(Boolean).join(' ');
  const rows: Array<[label: string, value: string | null]> = [
    [t('profile.email'), user.email],
    [t('profile.phone'), user.phoneNumber ? formatPhoneNumber(user.phoneNumber) : null],
    [t('profile.birthDate'), user.birthDate ? formatBirthDate(user.birthDate) : null],
    [t('profile.address'), user.address],
    [t('profile.city'), place || null],
    [
      t('profile.phoneBook'),
      // Off unless the customer turned it on (contract `user.showInPhoneBook`).
      user.showInPhoneBook ? t('profile.phoneBookShown') : t('profile.phoneBookHidden'),
    ],
    [t('profile.language'), t(`language.${user.locale}`)],
  ];

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('profile.title')} />
      <ScreenBody>
        <div className="flex items-center gap-4">
          <span
            aria-hidden="true"
            className="flex size-16 shrink-0 items-center justify-center rounded-full bg-ocean-900 text-heading font-bold text-white"
          >
            {initials}
          </span>
          <p className="min-w-0 text-title font-bold break-words text-ocean-950">
            {user.firstname} {user.lastname}
          </p>
        </div>
        <Card className="pb-2" aria-labelledby="profile-details-title">
          <h2 id="profile-details-title" className="text-heading font-bold text-ocean-950">
            {t('profile.details')}
          </h2>
          <dl className="divide-y divide-mist-100">
            {rows.map(([label, value]) => (
              <div key={label} className="flex flex-col gap-0.5 py-3">
                <dt className="text-caption text-mist-500">{label}</dt>
                <dd
                  className={
                    value
                      ? 'text-body font-medium break-words text-mist-900'
                      : 'text-body text-mist-500'
                  }
                >
                  {value ?? t('common.notProvided')}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
        <UsageAlertSettings user={user} />
        <NotificationSettingsCard />
        {ownLines.map((line) => (
          <SimSection key={line.id} lineId={line.id} showNumber />
        ))}
        <ListGroup title={t('profile.manage')}>
          <ListRowLink
            to={ROUTES.profileEdit}
            icon={<PencilIcon className="size-5" />}
            label={t('profile.edit.title')}
          />
          <ListRowLink
            to={ROUTES.profilePassword}
            icon={<KeyIcon className="size-5" />}
            label={t('profile.password.title')}
          />
          <ListRowLink
            to={ROUTES.profileDevices}
            icon={<PhoneIcon className="size-5" />}
            label={t('profile.devices.title')}
          />
          <ListRowLink
            to={ROUTES.passkeys}
            icon={<PasskeyIcon className="size-5" />}
            label={t('profile.passkeys.title')}
          />
          <ListRowLink
            to={ROUTES.agreement}
            icon={<WalletIcon className="size-5" />}
            label={t('paymentAgreement.title')}
          />
        </ListGroup>
        <DataExportSection />
        <Button
          variant="secondary"
          block
          icon={<LogoutIcon className="size-5" />}
          onClick={() => void logout()}
        >
          {t('profile.logout')}
        </Button>
        <ListGroup>
          <ListRowButton
            onClick={() => void deleteAccount.run()}
            icon={<TrashIcon className="size-5" />}
            label={t('profile.delete.action')}
            tone="danger"
          />
        </ListGroup>
      </ScreenBody>
    </main>
  );
}

/**
 * Delete user (SPEC §6): confirmed in a modal; refused with HAS_ACTIVE_SUBSCRIPTION while the
 * customer still has a subscription, which an alert explains. A deleted user is logged out.
 */
function useDeleteUser() {
  const { t } = useTranslation();
  const modal = useModal();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const { http, signOut } = useAppServices();
  const [deleting, setDeleting] = useState(false);

  const run = async () => {
    if (deleting) return;
    const confirmed = await modal.confirm({
      title: t('profile.delete.title'),
      message: t('profile.delete.message'),
      confirmLabel: t('profile.delete.confirm'),
      tone: 'danger',
    });
    if (!confirmed) return;
    setDeleting(true);
    const result = await deleteUser(http);
    if (!result.ok) {
      setDeleting(false);
      if (result.error.code === 'HAS_ACTIVE_SUBSCRIPTION') {
        await modal.alert({
          title: t('profile.delete.blockedTitle'),
          message: `${errorMessage(result.error)}\n\n${t('profile.delete.blockedHint')}`,
          tone: 'warning',
        });
      } else {
        toast.show({ type: 'error', message: errorMessage(result.error) });
      }
      return;
    }
    await signOut();
    // After the sign-out reset (which clears toasts), so it stays on the login screen.
    toast.show({ type: 'info', message: t('profile.delete.done') });
  };

  return { run };
}

/** Birth dates are calendar dates (yyyy-mm-dd); shown as DD.MM.YYYY without a time-zone shift. */
function formatBirthDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : formatDate(value);
}
