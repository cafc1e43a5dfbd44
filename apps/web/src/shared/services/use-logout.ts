import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useModal } from '@/shared/ui/modal/modal-context';
import { useAppServices } from './app-services';

/** Asks for confirmation, then logs out (menu and profile). Resolves true when logged out. */
export function useLogout(): () => Promise<boolean> {
  const { t } = useTranslation();
  const modal = useModal();
  const { signOut } = useAppServices();
  return useCallback(async () => {
    const confirmed = await modal.confirm({
      title: t('logout.title'),
      message: t('logout.message'),
      confirmLabel: t('logout.confirm'),
      tone: 'danger',
    });
    if (confirmed) await signOut();
    return confirmed;
  }, [modal, signOut, t]);
}
