import { createServer } from 'node:http';
import { startVippsPrism } from './vipps-prism';

/*
 * Vipps MobilePay's published documents under Prism as a program of its own, for the browser
 * journey on PAYMENT_PROVIDER=vipps-mobilepay (apps/web/playwright.config.ts, issue 42):
 *
 *   VIPPS_PRISM_PORT      the provider's address (the API's VIPPS_MOBILEPAY_API_URL)
 *   VIPPS_PRISM_PORT + 1  GET /violations and GET /requests: what the adapter sent that the
 *                         documents refuse, and everything it sent (the journey asserts on them)
 *
 * Runs until it is stopped (SIGTERM / SIGINT); the Prism processes stop with it.
 */
const port = Number(process.env.VIPPS_PRISM_PORT ?? 3212);
const prism = await startVippsPrism({ port });
const inspection = createServer((req, res) => {
  const body =
    req.url === '/violations' ? prism.violations : req.url === '/requests' ? prism.requests : null;
  res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body ?? { error: 'GET /violations or /requests' }));
});
await new Promise<void>((resolve) => inspection.listen(port + 1, '127.0.0.1', resolve));
process.stdout.write(`Vipps MobilePay documents under Prism at ${prism.url}\n`);

const stop = async () => {
  inspection.close();
  await prism.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
