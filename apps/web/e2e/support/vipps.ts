/**
 * The second system of the journeys (issue 42): an API on PAYMENT_PROVIDER=vipps-mobilepay and,
 * as its provider, Vipps MobilePay's published API documents under Prism
 * (apps/api/test/support/vipps-prism-main.ts), both started by playwright.config.ts.
 */
const port = Number(process.env.E2E_PORT ?? 3210);

/** The API (and app) on Vipps MobilePay. */
export const VIPPS_API_PORT = port + 1;
/** Prism as api.vipps.no; its inspection server (GET /violations, /requests) is one port up. */
export const VIPPS_PRISM_PORT = port + 2;
