// A Vite plugin (issue 30, ADR 0072): the login screen, rendered at build time by React's static
// renderer (src/app/prerender.tsx), goes into index.html's #root beside the static splash, with
// the one inline script (FIRST_PAINT_SCRIPT) that picks which of the two the stylesheet shows
// before the first paint. A guest's first paint is then the login screen (its LCP no longer
// waits for the JavaScript); a signed-in start still shows the splash. When the app mounts,
// React renders the same screen in their place. Build only.
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
// Relative: Vite bundles the config's own imports, not a workspace package's TypeScript.
import { FIRST_PAINT_SCRIPT } from '../../packages/contract/src/first-paint';

const ROOT_OPEN = '<div id="root">';
/** The attribute that marks the prerendered screen inside #root (styles.css shows or hides it). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** index.html with `screenHtml` first in #root (hidden unless the start is a guest's). */
export function withPrerenderedScreen(html: string, screenHtml: string): string {
  if (!html.includes(ROOT_OPEN)) throw new Error(`prerender: index.html has no ${ROOT_OPEN}`);
  return html.replace(
    ROOT_OPEN,
    `${ROOT_OPEN}<div ${PRERENDERED_ATTRIBUTE}="login">${screenHtml}</div>`,
  );
}

/** Renders src/app/prerender.tsx's screen with this app's own Vite config (aliases, texts). */
async function renderLogin(config: ResolvedConfig): Promise<string> {
  const server = await createServer({
    configFile: config.configFile,
    root: config.root,
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const module = (await server.ssrLoadModule('/src/app/prerender.tsx')) as {
      renderLoginScreen: () => Promise<string>;
    };
    return await module.renderLoginScreen();
  } finally {
    await server.close();
  }
}

export function prerenderFirstScreen(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'alda:prerender-first-screen',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const screen = await renderLogin(config);
        return {
          html: withPrerenderedScreen(html, screen),
          tags: [{ tag: 'script', children: FIRST_PAINT_SCRIPT, injectTo: 'head-prepend' }],
        };
      },
    },
  };
}
