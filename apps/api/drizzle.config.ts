import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @alda/api` diffs src/db/schema against the committed snapshots and
// writes the next SQL migration into ./drizzle. The server applies them at start (src/db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/*.ts',
  out: './drizzle',
});
