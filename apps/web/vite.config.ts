import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [{ find: /^@\/(.*)$/, replacement: `${src}/$1` }],
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
    // The API serves the app under a strict CSP (no inline scripts or styles), so nothing is inlined.
    assetsInlineLimit: 0,
  },
});
