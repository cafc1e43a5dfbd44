import type { Alias } from 'vite';

/**
 * The app is written against React's API and runs on Preact's compatibility layer (ADR 0062):
 * the same components, ~57 KiB less gzip on every first load. One list for the build and the
 * unit tests, so what the tests render is what ships.
 */
export const PREACT_COMPAT: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
