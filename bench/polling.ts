// Polling benchmark (issue 5, docs/decisions/0041-polling-etag.md; issue 13): what one 60-s poll
// costs the API when nothing changed (304 to a matching If-None-Match) and when it did (200 with
// the body), next to a Fastify hello-world measured in the same run, with the database queries
// per request. The polls are targets of bench/api-load.ts, which `npm run bench` runs whole;
// this measures them alone, with the same flags:
//   npx tsx bench/polling.ts [--duration 6] [--rounds 3] [--connections 50] [--db pglite|postgres|both]
import { main } from './api-load';

process.exitCode = await main([
  ...process.argv.slice(2),
  '--only',
  'GET /api/notifications,GET /api/data-transfers',
]);
