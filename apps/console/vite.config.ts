import { fileURLToPath, URL } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompressDir } from '../web/precompress';

const src = fileURLToPath(new URL('./src', import.meta.url));

/** Where `npm run dev` of the API listens (apps/api, PORT 3000). */
const API_ORIGIN = 'http://127.0.0.1:3000';

/**
 * After `vite build`, brotli and gzip copies next to each text asset (the web app's build step,
 * apps/web/precompress.ts), served by the API by Accept-Encoding (apps/api/src/plugins/console-app.ts).
 */
function precompress(): Plugin {
  let outDir = '';
  let logger: ResolvedConfig['logger'] | undefined;
  return {
    name: 'alda-console:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle(error) {
      if (error) return;
      const files = await precompressDir(outDir);
      logger?.info(`precompressed ${files.length} files (br, gzip)`);
    },
  };
}

export default defineConfig({
  // Served by the API at /console/ (apps/api/src/plugins/console-app.ts); every URL of the build
  // starts with it, and the router's basename follows it (import.meta.env.BASE_URL).
  base: '/console/',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${src}/$1` },
      // The API's CSP has no 'unsafe-eval': every import of 'zod' and of 'zod/mini' (the
      // contract's schemas) goes through a module that switches on jitless mode first.
      { find: /^zod$/, replacement: `${src}/shared/zod-jitless.ts` },
      { find: /^zod\/mini$/, replacement: `${src}/shared/zod-mini-jitless.ts` },
    ],
  },
  server: {
    port: 5174,
    strictPort: true,
    proxy: { '/api': { target: API_ORIGIN, changeOrigin: false } },
  },
  preview: {
    port: 4174,
    proxy: { '/api': { target: API_ORIGIN, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Tailwind 4's baseline, as the web app (apps/web/vite.config.ts).
    target: ['es2022', 'safari16.4', 'chrome111', 'firefox128'],
    sourcemap: true,
    rolldownOptions: {
      output: {
        sourcemapExcludeSources: true,
        // The libraries in chunks of their own: cached across deploys of the console's code, and
        // none over Vite's 500 kB warning. The areas' screens are chunks of their own (lazy routes).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            // WebAuthn (ADR 0097): loaded by `import()` when a passkey ceremony starts, not at start.
            { name: 'webauthn', test: /[\\/]node_modules[\\/]@simplewebauthn[\\/]/ },
            { name: 'vendor', test: /[\\/]node_modules[\\/]/ },
          ],
        },
      },
    },
    // The API serves the console under a strict CSP (no inline scripts): nothing is inlined.
    assetsInlineLimit: 0,
  },
});
