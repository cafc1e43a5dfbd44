import { createRequire } from 'node:module';
import { fileURLToPath, URL } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { screenChunks } from './screen-chunks';
import { textParts } from './text-parts-plugin';
import { precompressDir } from './precompress';
import { firstPaintOrder, preloadFirstScreen } from './preload-first-screen';
import { FIRST_SCREENS } from './first-screens';
import { staticSplash } from './static-splash';
import { prerenderFirstScreen } from './prerender-plugin';
import { serviceWorker } from './service-worker-plugin';

const src = fileURLToPath(new URL('./src', import.meta.url));

/**
 * After `vite build` has written everything (bundles and public/ files), writes brotli and gzip
 * copies next to each text asset (precompress.ts); the API serves them by Accept-Encoding
 * (issue 13). Not in dev: Vite's dev server serves sources.
 */
function precompress(): Plugin {
  let outDir = '';
  let logger: ResolvedConfig['logger'] | undefined;
  return {
    name: 'alda:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle(error) {
      if (error) return;
      const started = Date.now();
      const files = await precompressDir(outDir);
      const sum = (pick: (file: (typeof files)[number]) => number | null) =>
        (files.reduce((total, file) => total + (pick(file) ?? file.bytes), 0) / 1024).toFixed(1);
      logger?.info(
        `precompressed ${files.length} files in ${Date.now() - started} ms: ` +
          `${sum((file) => file.bytes)} KiB → br ${sum((file) => file.br)} KiB, gzip ${sum((file) => file.gz)} KiB`,
      );
    },
  };
}

/**
 * React Router's package exports send every bundler to its development build (dist/development,
 * dev warnings on; remix-run/react-router#12532 and #14102, "intended to be temporary"). The
 * build takes the production build the same package ships next to it: no dev warnings in the
 * console, 0.6 KiB less gzip in the initial JS (issue 45, bench/bundle-size.mjs). Build only:
 * the dev server and the tests keep the warnings.
 */
function reactRouterProductionBuild(): Plugin {
  const require = createRequire(import.meta.url);
  const dir = path.join(
    path.dirname(require.resolve('react-router/package.json')),
    'dist/production',
  );
  const files: Record<string, string> = {
    'react-router': path.join(dir, 'index.mjs'),
    'react-router/dom': path.join(dir, 'dom-export.mjs'),
  };
  return {
    name: 'alda:react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => files[source] ?? null,
  };
}

export default defineConfig({
  plugins: [
    react(),
    reactRouterProductionBuild(),
    tailwindcss(),
    textParts(),
    // Fetched with the entry chunk: the default language's texts and the first screen's chunks
    // (first-screens.ts).
    preloadFirstScreen(FIRST_SCREENS),
    // Home signed in (with the start-up schemas) and the purchase screen each as one chunk
    // rather than ~35 small ones; zod stays a chunk of its own, shared with the form screens.
    screenChunks({
      shell: 'shell',
      screens: [
        // What every signed-in screen needs and a guest's first screen does not: the query
        // cache (TanStack Query) and the frame's signed-in parts (issue 45).
        {
          name: 'session',
          modules: ['src/shared/api/query-runtime.ts', 'src/app/signed-in-shell.tsx'],
        },
        {
          name: 'home',
          modules: ['src/features/home/home-screen.tsx', 'src/shared/api/account-schemas.ts'],
        },
        { name: 'purchase', modules: ['src/features/packages/packages-screen.tsx'] },
      ],
      keepOut: [
        'src/features/auth/login-chooser-screen.tsx',
        'src/features/auth/email-login-screen.tsx',
        'src/features/auth/phone-login-screen.tsx',
        'src/features/auth/pin-screen.tsx',
      ],
      exclude: /[\\/]node_modules[\\/]zod[\\/]|[\\/]zod(-mini)?-jitless\.ts$/,
      // What home and the sign-in screens both use (schemas, formats, error texts) as one chunk
      // instead of ten small ones; the login screen a guest starts on does not load it.
      shared: { name: 'account-common', notIn: ['src/features/auth/login-chooser-screen.tsx'] },
      // The entry needs only TanStack Query's context; the query cache loads with its own chunk.
      shellExclude:
        /[\\/]node_modules[\\/]@tanstack[\\/](?!react-query[\\/]build[\\/]modern[\\/]QueryClientProvider)/,
    }),
    // The stylesheet before the scripts, and the scripts at low priority: the first paint waits
    // for the HTML and the stylesheet only.
    firstPaintOrder(),
    // The splash as static markup in index.html: the first paint does not wait for JavaScript.
    staticSplash(path.join(src, 'locales/fo.json')),
    // A guest's first paint is the login screen itself, rendered at build time by React.
    prerenderFirstScreen(),
    // The app shell without a network (issue 16 item 4, ADR 0069): sw.js with the shell's files:
    // the entry's, and those of the first screens and both languages' texts.
    serviceWorker({
      shellModules: [
        'src/features/auth/login-chooser-screen.tsx',
        'src/features/home/home-screen.tsx',
        'src/features/packages/packages-screen.tsx',
        'src/shared/i18n/resources-fo.ts',
        'src/shared/i18n/resources-en.ts',
        'src/locales/fo.later.js',
        'src/locales/en.later.js',
      ],
    }),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${src}/$1` },
      // Zod loads with the screens that use it, not with the entry: every import of 'zod' goes
      // through the module that switches on jitless mode first (the CSP has no 'unsafe-eval').
      { find: /^zod$/, replacement: `${src}/shared/config/zod-jitless.ts` },
      { find: /^zod\/mini$/, replacement: `${src}/shared/config/zod-mini-jitless.ts` },
    ],
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false, ws: true },
      // The built-in test provider's card page (issue 6); set APP_URL to Vite's origin in dev.
      '/test-provider': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false, ws: true },
      // The built-in test provider's card page (issue 6); set APP_URL to Vite's origin in dev.
      '/test-provider': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    // Tailwind 4's baseline (cascade layers, @property, color-mix): Safari 16.4, Chrome 111.
    // Capacitor 7 WebViews on supported OS versions meet it.
    target: ['es2022', 'safari16.4', 'chrome111', 'firefox128'],
    // bench/bundle-size.mjs reads the manifest to report the initial JS per route.
    manifest: true,
    sourcemap: true,
    // The maps name sources and lines (error reports, bench/bundle-size.mjs); the sources' text
    // stays out of what the server ships.
    rolldownOptions: { output: { sourcemapExcludeSources: true } },
    // The API serves the app under a strict CSP (no inline scripts or styles), so nothing is inlined.
    assetsInlineLimit: 0,
  },
});
