import { describe, expect, it, vi } from 'vitest';
import { precacheList, type BundleFile } from '../../service-worker-precache';
import { registerServiceWorker } from '@/app/service-worker';

const chunk = (
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  { isEntry = false, css = [] as string[] } = {},
): BundleFile => ({
  type: 'chunk',
  fileName,
  isEntry,
  imports,
  moduleIds,
  viteMetadata: { importedCss: new Set(css) },
});

/** A build like Vite's: the entry, its static imports, screen chunks, texts and a lazy screen. */
const files: BundleFile[] = [
  chunk('assets/index-a1.js', ['/app/src/main.tsx'], ['assets/compat-b2.js'], {
    isEntry: true,
    css: ['assets/index-c3.css'],
  }),
  chunk('assets/compat-b2.js', ['/node_modules/react-dom/cjs/react-dom-client.production.js']),
  chunk(
    'assets/home-screen-d4.js',
    ['/app/src/features/home/home-screen.tsx'],
    ['assets/home-e5.js', 'assets/compat-b2.js'],
  ),
  chunk('assets/home-e5.js', ['/app/src/shared/api/account-schemas.ts'], ['assets/zod-f6.js']),
  chunk('assets/zod-f6.js', ['/node_modules/zod/index.js']),
  chunk('assets/fo.later-g7.js', ['text-part:/app/src/locales/fo.later.js']),
  chunk(
    'assets/usage-history-screen-h8.js',
    ['/app/src/features/usage-history/usage-history-screen.tsx'],
    ['assets/uplot-i9.js'],
    { css: ['assets/uplot-j0.css'] },
  ),
  chunk('assets/uplot-i9.js', ['/node_modules/uplot/dist/uPlot.esm.js']),
  { type: 'asset', fileName: 'index.html' },
  { type: 'asset', fileName: 'assets/index-c3.css' },
  { type: 'asset', fileName: 'assets/uplot-j0.css' },
];
const bundle = Object.fromEntries(files.map((file) => [file.fileName, file]));

describe('issue 16.4: the service worker’s precache list', () => {
  it('holds index.html, the entry with its imports and CSS, the shell’s screens and texts, and the icons — nothing else', () => {
    const list = precacheList(bundle, {
      shellModules: ['src/features/home/home-screen.tsx', 'src/locales/fo.later.js'],
      publicFiles: ['favicon.svg'],
    });
    expect(list).toEqual([
      '/index.html',
      '/assets/compat-b2.js',
      '/assets/fo.later-g7.js',
      '/assets/home-e5.js',
      '/assets/home-screen-d4.js',
      '/assets/index-a1.js',
      '/assets/index-c3.css',
      '/assets/zod-f6.js',
      '/favicon.svg',
    ]);
    // A screen opened later (and its chart library) is cached when it is first fetched.
    expect(list.join()).not.toMatch(/usage-history|uplot/);
  });

  it('fails the build when a shell module is in no chunk (a screen renamed or moved)', () => {
    expect(() =>
      precacheList(bundle, {
        shellModules: ['src/features/home/home.tsx'],
        publicFiles: [],
      }),
    ).toThrow(/no chunk holds src\/features\/home\/home\.tsx/);
  });
});

describe('issue 16.4: registering the service worker', () => {
  it('registers /sw.js for the whole app in a production web build', async () => {
    const register = vi.fn(async () => ({}) as ServiceWorkerRegistration);
    await registerServiceWorker({ enabled: true, container: { register } });
    expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('registers nothing in the native shell, in development or in tests (not enabled)', async () => {
    const register = vi.fn(async () => ({}) as ServiceWorkerRegistration);
    expect(await registerServiceWorker({ enabled: false, container: { register } })).toBeNull();
    expect(register).not.toHaveBeenCalled();
  });
});
