import { useTranslation } from 'react-i18next';
import { href, ROUTES } from '@/shared/config/paths';
import { ShieldIcon } from '@/shared/ui/icons';
import { ListRowLink } from '@/shared/ui/list-row';
import { useProtectionQuery } from './protection-api';

/**
 * The row that opens a number's lock screen, with the lock's state ("Nummarlás: Læst"): on the
 * manage and family member screens and beside each own number's SIM on the profile.
 */
export function NumberLockRow({ lineId }: { lineId: string }) {
  const { t } = useTranslation();
  const protection = useProtectionQuery(lineId);
  const state = protection.data?.lock.state;
  return (
    <ListRowLink
      to={href(ROUTES.numberLock, { lineId })}
      icon={<ShieldIcon className="size-5" />}
      label={t('protection.row')}
      value={state ? t(`protection.state.${state}`) : undefined}
    />
  );
}
