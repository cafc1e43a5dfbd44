import { PAYMENT_HUB_PATH } from '@alda/contract/schemas/orders';
import { createHubConnection, hubUrl } from '@/shared/api/hub-connection';
import { PaymentHubClient } from './payment-watch';

/**
 * A payment hub client (SPEC §7 "Payment hub"), over the shared hub connection settings
 * (`shared/api/hub-connection.ts`). Import it only with `import()` from payment screens, so the
 * SignalR client stays out of the app's first download.
 */
export function createPaymentHub(
  accessTokenFactory: () => string | Promise<string>,
  url: string = hubUrl(PAYMENT_HUB_PATH),
): PaymentHubClient {
  return new PaymentHubClient(createHubConnection(url, accessTokenFactory));
}
