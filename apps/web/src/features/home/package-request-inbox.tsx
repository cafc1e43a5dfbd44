import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { PackageRequest } from '@alda/contract/schemas/controls';
import {
  controlsApi,
  packageRequestKeys,
  usePackageRequestsQuery,
} from '@/shared/api/package-requests';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useFormatters } from '@/shared/format/use-formatters';
import { useAppServices } from '@/shared/services/app-services';
import { Button, ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { useModal } from '@/shared/ui/modal/modal-context';
import { useToast } from '@/shared/ui/toast/toast-context';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

/**
 * The owner's inbox of members' package requests on home (issue 16.3, ADR 0068): each with who
 * asks for which package, "Approve and pay" (the purchase screen for that number and package,
 * which pays through the normal payment flow) and "Decline" (confirmed; the member is told).
 * Shows nothing while there is nothing to decide, or while the list cannot be read (home has
 * enough to say; the notification tells the owner too).
 */
export function PackageRequestInbox() {
  const { t } = useTranslation();
  const requests = usePackageRequestsQuery();
  const toDecide = (requests.data ?? []).filter((r) => r.isApprover && r.status === 'pending');
  if (toDecide.length === 0) return null;
  return (
    <section aria-labelledby="package-requests-title" className="flex flex-col gap-3">
      <h2 id="package-requests-title" className="px-1 text-heading font-bold text-ocean-950">
        {t('home.packageRequests.title')}
      </h2>
      {toDecide.map((request) => (
        <RequestCard key={request.id} request={request} />
      ))}
    </section>
  );
}

function RequestCard({ request }: { request: PackageRequest }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const [declining, setDeclining] = useState(false);
  const name = `${request.requester.firstname} ${request.requester.lastname}`.trim();

  const decline = async () => {
    const confirmed = await modal.confirm({
      title: t('home.packageRequests.declineTitle'),
      message: t('home.packageRequests.declineBody', { name, package: request.package.name }),
      confirmLabel: t('home.packageRequests.decline'),
      tone: 'danger',
    });
    if (!confirmed) return;
    setDeclining(true);
    const result = await controlsApi.remove(http, request.id);
    await queryClient.invalidateQueries({ queryKey: packageRequestKeys.all });
    setDeclining(false);
    if (!result.ok) {
      toast.show({
        type: 'error',
        message: `${t('home.packageRequests.failed')} ${errorMessage(result.error)}`,
      });
      return;
    }
    toast.show({ type: 'info', message: t('home.packageRequests.declined', { name }) });
  };

  return (
    <Card className="flex flex-col gap-3">
      <p className="text-body text-ocean-900">
        {t('home.packageRequests.body', {
          name,
          package: request.package.name,
          number: formatPhoneNumber(request.phoneNumber),
          price: f.kr(request.package.price.gross),
        })}
      </p>
      {request.orderId && (
        <p className="text-caption text-mist-600">{t('home.packageRequests.paying')}</p>
      )}
      <div className="flex flex-wrap gap-2">
        <ButtonLink
          size="md"
          to={href(
            ROUTES.buyPackage,
            {},
            {
              [QUERY.line]: request.phoneNumber,
              [QUERY.package]: request.package.id,
              [QUERY.request]: request.id,
            },
          )}
        >
          {t('home.packageRequests.approve')}
        </ButtonLink>
        <Button size="md" variant="secondary" loading={declining} onClick={() => void decline()}>
          {t('home.packageRequests.decline')}
        </Button>
      </div>
    </Card>
  );
}
