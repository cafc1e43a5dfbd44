import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import {
  HUB_KEEP_ALIVE_MS,
  HUB_RECONNECT_DELAYS_MS,
  HUB_REQUEST_TIMEOUT_MS,
  HUB_SERVER_TIMEOUT_MS,
} from '@alda/contract/constants';
import { SUPPORT_HUB_PATH } from '@alda/contract/schemas/support';
import { apiUrl, appConfig } from '@/shared/config/app-config';
import { SupportHubClient } from './support-hub-client';

/**
 * The support hub's URL under the configured API base (absolute in the native shell): the
 * contract's path is `/api/hubs/support`, relative to a base of `/api`.
 */
export function supportHubUrl(apiBaseUrl: string = appConfig.apiBaseUrl): string {
  return apiUrl(SUPPORT_HUB_PATH.slice('/api'.length), apiBaseUrl);
}

/**
 * A support hub client over the official SignalR client, with the payment hub's settings
 * (shared/payments/payment-hub.ts, SPEC §9): WebSockets, reconnect delays 0, 2 s, 10 s, 30 s
 * then stop, server timeout 30 s, keep-alive 15 s, negotiate timeout 100 s. `accessTokenFactory`
 * is asked at every (re)connect: give it a fresh token (`http.freshAccessToken`), since the hub
 * ends a connection when its token expires.
 *
 * This module pulls in `@microsoft/signalr`: import it only with `import()` (support-live.ts),
 * so the library stays out of every other screen's download.
 */
export function createSupportHub(
  accessTokenFactory: () => string | Promise<string>,
  url: string = supportHubUrl(),
): SupportHubClient {
  const connection = new HubConnectionBuilder()
    .withUrl(url, {
      accessTokenFactory,
      transport: HttpTransportType.WebSockets,
      // No cookies are used; a credentialed cross-origin negotiate (native shell) would need
      // Access-Control-Allow-Credentials, which the API does not send.
      withCredentials: false,
      timeout: HUB_REQUEST_TIMEOUT_MS,
    })
    .withAutomaticReconnect([...HUB_RECONNECT_DELAYS_MS])
    .configureLogging(import.meta.env.DEV ? LogLevel.Information : LogLevel.Warning)
    .build();
  connection.serverTimeoutInMilliseconds = HUB_SERVER_TIMEOUT_MS;
  connection.keepAliveIntervalInMilliseconds = HUB_KEEP_ALIVE_MS;
  return new SupportHubClient(connection);
}
