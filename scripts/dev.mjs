// `npm run dev`: the API (tsx watch, demo data) and the Vite dev server (proxying /api) with reload.
import concurrently from 'concurrently';

const { result } = concurrently(
  [
    {
      name: 'api',
      command: 'npm run dev -w @alda/api',
      // The test provider's card page returns to the app's origin, which in dev is Vite's
      // (Vite proxies /api and /test-provider to the API; webhooks still go to the API itself).
      env: {
        DEMO_MODE: 'true',
        APP_URL: process.env.APP_URL ?? 'http://localhost:5173',
        PAYMENT_WEBHOOK_URL:
          process.env.PAYMENT_WEBHOOK_URL ?? 'http://localhost:3000/api/payments/webhooks/test',
      },
      prefixColor: 'cyan',
    },
    { name: 'web', command: 'npm run dev -w @alda/web', prefixColor: 'magenta' },
    // The staff console on its own Vite server (http://localhost:5174/console/).
    { name: 'console', command: 'npm run dev -w @alda/console', prefixColor: 'yellow' },
  ],
  { killOthersOn: ['failure', 'success'] },
);
result.catch(() => process.exit(1));
