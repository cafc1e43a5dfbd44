// `npm run dev`: the API (tsx watch, demo data) and the Vite dev server (proxying /api) with reload.
import concurrently from 'concurrently';

const { result } = concurrently(
  [
    { name: 'api', command: 'npm run dev -w @alda/api', env: { DEMO_MODE: 'true' }, prefixColor: 'cyan' },
    { name: 'web', command: 'npm run dev -w @alda/web', prefixColor: 'magenta' },
  ],
  { killOthersOn: ['failure', 'success'] },
);
result.catch(() => process.exit(1));
