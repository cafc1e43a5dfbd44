// A Vite plugin (issue 13): writes the splash into index.html's #root as static markup, labelled
// in the default language (Faroese), so the first paint needs only the HTML and the stylesheet.
// React replaces it when it mounts (createRoot clears #root), first with the same splash
// (app/splash-fallback.tsx) and then with the screen. The markup has one home:
// src/shared/ui/splash-markup.ts.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { splashHtml } from './src/shared/ui/splash-markup';

const ROOT = '<div id="root"></div>';

/** index.html with the splash inside its empty #root. */
export function withStaticSplash(html: string, loadingLabel: string): string {
  if (!html.includes(ROOT)) throw new Error(`static splash: index.html has no ${ROOT}`);
  return html.replace(ROOT, `<div id="root">${splashHtml(loadingLabel)}</div>`);
}

export function staticSplash(faroeseTextsFile: string): Plugin {
  return {
    name: 'alda:static-splash',
    transformIndexHtml(html) {
      const texts = JSON.parse(readFileSync(faroeseTextsFile, 'utf8')) as {
        app?: { loading?: string };
      };
      const label = texts.app?.loading;
      if (!label) throw new Error(`static splash: no app.loading in ${faroeseTextsFile}`);
      return withStaticSplash(html, label);
    },
  };
}
