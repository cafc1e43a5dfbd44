// `npm run bench`: every benchmark, one after another. Each prints its own figures.
import { spawnSync } from 'node:child_process';

const steps = [
  ['API load (hello-world vs real endpoints)', ['npx', 'tsx', 'bench/api-load.ts']],
  ['Polling (304 and 200 vs hello-world)', ['npx', 'tsx', 'bench/polling.ts']],
  [
    'Payment hub (idle connections, memory, PaymentUpdated latency)',
    ['npx', 'tsx', 'bench/hub.ts'],
  ],
  ['Bundle size per route', ['node', 'bench/bundle-size.mjs']],
];
let failed = false;
for (const [title, [cmd, ...args]] of steps) {
  console.log(`\n### ${title}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
