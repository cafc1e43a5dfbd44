// The flags of each bench's smoke run: seconds each, enough to start every server, measure once
// and print the tables (`npm run bench -- --smoke`, bench/smoke.test.ts). The figures are not
// judged; a bench that no longer runs is.
export const SMOKE_FLAGS = {
  api: [
    '--duration',
    '0.5',
    '--rounds',
    '1',
    '--warmup',
    '0',
    '--count',
    '3',
    '--connections',
    '4',
  ],
  hub: ['--connections', '20', '--events', '10'],
  lighthouse: ['--runs', '1', '--screens', 'home', '--calibrate'],
  soak: [
    '--minutes',
    '0.1',
    '--rate',
    '50',
    '--users',
    '50',
    '--window',
    '3',
    '--connections',
    '4',
  ],
};
