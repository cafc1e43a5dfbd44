import { SUPPORT_HUB_PATH } from '@alda/contract/schemas/support';
import { createHubConnection, hubUrl } from '@/shared/api/hub-connection';
import { SupportHubClient } from './support-hub-client';

/**
 * A support hub client (issue 46, ADR 0088), over the payment hub's connection settings
 * (`shared/api/hub-connection.ts`). Import it only with `import()` (support-live.ts), so the
 * SignalR client stays out of every other screen's download.
 */
export function createSupportHub(
  accessTokenFactory: () => string | Promise<string>,
  url: string = hubUrl(SUPPORT_HUB_PATH),
): SupportHubClient {
  return new SupportHubClient(createHubConnection(url, accessTokenFactory));
}
