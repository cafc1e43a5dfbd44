/**
 * The third system of the journeys (issue 43): an API on NETWORK_ADAPTER=tmf641 whose OSS is its
 * own demo TMF641 server (the network simulator answering as TM Forum TMF641 Service Ordering v4
 * under /tmf-api/serviceOrdering/v4/), started by playwright.config.ts. signup.spec.ts runs on it,
 * so the sign-up journeys prove that the customer's timeline looks the same through TMF641.
 */
const port = Number(process.env.E2E_PORT ?? 3210);

/** The API (and app) on the TMF641 network adapter. */
// port + 2 is Prism for Vipps MobilePay and port + 3 its inspection server (vipps.ts).
export const TMF641_API_PORT = port + 4;
/** The shared secret of the listener (≥ 24 characters); the demo server sends it with its events. */
export const TMF641_LISTENER_SECRET = 'e2e-tmf641-listener-secret-0123456789';
