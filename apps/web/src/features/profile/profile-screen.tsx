import { useTranslation } from 'react-i18next';
import { formatDate } from '@alda/contract/format/date';
import { formatPhoneNumber } from '@/shared/format/phone';
import { useSession } from '@/shared/services/app-services';
import { useLogout } from '@/shared/services/use-logout';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { LogoutIcon } from '@/shared/ui/icons';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';

/** /min-brukari (profile): the user's details, read-only in this release, and logout. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const logout = useLogout();
  if (!user) return null;

  const initials = `${user.firstname.charAt(0)}${user.lastname.charAt(0)}`.toUpperCase();
  const place = [user.postCode, user.city].filter(Boolean).join(' ');
  const rows: Array<[label: string, value: string | null]> = [
    [t('profile.email'), user.email],
    [t('profile.phone'), user.phoneNumber ? formatPhoneNumber(user.phoneNumber) : null],
    [t('profile.birthDate'), user.birthDate ? formatBirthDate(user.birthDate) : null],
    [t('profile.address'), user.address],
    [t('profile.city'), place || null],
  ];

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('profile.title')} />
      <ScreenBody>
        <div className="flex items-center gap-4">
          <span
            aria-hidden="true"
            className="flex size-16 items-center justify-center rounded-full bg-ocean-900 text-heading font-bold text-white"
          >
            {initials}
          </span>
          <p className="text-title font-bold text-ocean-950">
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
                    value ? 'text-body font-medium text-mist-900' : 'text-body text-mist-400'
                  }
                >
                  {value ?? t('common.notProvided')}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
        <Button
          variant="secondary"
          block
          icon={<LogoutIcon className="size-5" />}
          onClick={() => void logout()}
        >
          {t('profile.logout')}
        </Button>
      </ScreenBody>
    </main>
  );
}

/** Birth dates are calendar dates (yyyy-mm-dd); shown as DD.MM.YYYY without a time-zone shift. */
function formatBirthDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : formatDate(value);
}
