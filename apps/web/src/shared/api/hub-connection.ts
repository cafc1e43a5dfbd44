import {
  HttpTransportType,
  HubConnectionBuilder,
  LogLevel,
  type HubConnection,
} from '@microsoft/signalr';
import {
  HUB_KEEP_ALIVE_MS,
  HUB_RECONNECT_DELAYS_MS,
  HUB_REQUEST_TIMEOUT_MS,
  HUB_SERVER_TIMEOUT_MS,
} from '@alda/contract/constants';
import { apiUrl, appConfig } from '@/shared/config/app-config';

/**
 * A hub's URL under the configured API base (absolute in the native shell): the contract's paths
 * (`/api/hubs/payment`, `/api/hubs/support`) are relative to a base of `/api`.
 */
export function hubUrl(contractPath: string, apiBaseUrl: string = appConfig.apiBaseUrl): string {
  return apiUrl(contractPath.slice('/api'.length), apiBaseUrl);
}

/**
 * A connection to one of the API's hubs (the payment hub, ADR 0051; the support hub, ADR 0088)
 * over the official SignalR client with the SPEC §9 settings: WebSockets, reconnect delays 0,
 * 2 s, 10 s, 30 s then stop, server timeout 30 s, keep-alive 15 s, request (negotiate) timeout
 * 100 s. `accessTokenFactory` is asked at every (re)connect: give it a fresh token
 * (`http.freshAccessToken`), since a hub ends a connection when its token expires.
 *
 * This module pulls in `@microsoft/signalr`: reach it only through an `import()` of the screens
 * that hold a connection, so the library stays out of the app's first download.
 */
export function createHubConnection(
  url: string,
  accessTokenFactory: () => string | Promise<string>,
): HubConnection {
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
  return connection;
}
