import path from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';
import {
  ENTRY_SCRIPT,
  GUEST_START,
  PRELOAD_FOR_ATTRIBUTE,
  SCRIPTS_TEMPLATE_ID,
  SIGNED_IN_PRELOAD,
} from '../../packages/contract/src/first-paint';

/** A JS chunk of the bundle, as far as this plugin reads it. */
interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  moduleIds: string[];
  imports: string[];
}

/** Which first screen's lazy chunks to preload: source files, relative to the app's root. */
export interface FirstScreens {
  /** Chunks every start needs (the default language's texts). */
  always: readonly string[];
  /** A guest's first screen (the login screen). */
  guest: readonly string[];
  /** A signed-in start's, by the path it opens on (home on `/`, the purchase screen, …). */
  signedIn: Readonly<Record<string, readonly string[]>>;
}

/**
 * Adds `<link rel="modulepreload">` to index.html for lazy chunks the first screen needs, so a
 * phone fetches them in parallel with the entry chunk instead of after it has run (issue 13).
 * Each chunk comes with its static imports; files the entry already preloads, or an earlier
 * group, are left out. A guest's links carry `data-for="guest"`, a signed-in start's
 * `data-for="user:<path>"`: `ENTRY_SCRIPT` adds only the links of the start it sees (issue 45), so
 * a customer opening home no longer downloads the login screen first, and home's chunks no
 * longer wait for the entry to run. Build only.
 */
export function preloadFirstScreen(screens: FirstScreens): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'alda:preload-first-screen',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter(
          (output): output is typeof output & ChunkInfo => output.type === 'chunk',
        );
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (fileName: string, seen: Set<string>) => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          for (const dep of byFile.get(fileName)?.imports ?? []) closure(dep, seen);
        };
        const preloaded = new Set<string>();
        if (ctx.chunk) closure(ctx.chunk.fileName, preloaded);

        /** The chunks of `modules` with their static imports, less what is preloaded already. */
        const filesFor = (modules: readonly string[]): string[] => {
          const wanted = new Set<string>();
          for (const module of modules) {
            const id = path.resolve(root, module);
            const chunk =
              chunks.find((c) => c.facadeModuleId === id) ??
              chunks.find((c) => c.moduleIds.includes(id));
            if (!chunk) throw new Error(`preloadFirstScreen: no chunk for ${module}`);
            closure(chunk.fileName, wanted);
          }
          return [...wanted].filter((fileName) => !preloaded.has(fileName));
        };
        const links = (fileNames: string[], dataFor?: string): HtmlTagDescriptor[] =>
          fileNames.map((fileName) => ({
            tag: 'link',
            attrs: {
              rel: 'modulepreload',
              crossorigin: true,
              href: `${base}${fileName}`,
              ...(dataFor ? { [PRELOAD_FOR_ATTRIBUTE]: dataFor } : {}),
            },
            injectTo: 'head',
          }));
        const always = filesFor(screens.always);
        for (const fileName of always) preloaded.add(fileName);
        return [
          ...links(always),
          ...links(filesFor(screens.guest), GUEST_START),
          ...Object.entries(screens.signedIn).flatMap(([pathname, modules]) =>
            links(filesFor(modules), `${SIGNED_IN_PRELOAD}${pathname}`),
          ),
        ];
      },
    },
  };
}

/**
 * The first paint's order in index.html (build only):
 * - the stylesheet ahead of the scripts (issue 13). Vite writes it after the entry script and its
 *   module preloads; a phone then asks for ~100 KiB of JavaScript before the 9 KiB the first
 *   paint waits for, and on a slow link they share the bandwidth. Lighthouse's first contentful
 *   paint on login went from 1.9 s to 1.3 s.
 * - the entry script and the module preloads at `fetchpriority="low"` (issue 45). The first paint
 *   needs none of them: a guest's is the login screen prerendered into index.html, a signed-in
 *   start's the static splash; both wait only for the HTML and the stylesheet. At the default
 *   priority (High) the scripts share the link with the stylesheet and count, for the browser as
 *   for Lighthouse's simulation of a phone, as blocking the paint; at low priority they follow it
 *   at once.
 * - those scripts in an inert `<template>`, added by the inline `ENTRY_SCRIPT` (issue 45): at once
 *   for a start with the splash (ahead of a saved session's start-up requests, at the same low
 *   priority), and only after the prerendered login has been painted for a guest. At low priority
 *   they still finished before that paint on a fast link, and Lighthouse's
 *   simulation of a phone then counts every request finished before the largest paint as on its
 *   path (first open: FCP 0.9 s, LCP 2.3 s).
 */
export function firstPaintOrder(): Plugin {
  return {
    name: 'alda:first-paint-order',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: firstPaintHtml,
    },
  };
}

/** index.html in the first paint's order (see {@link firstPaintOrder}). */
export function firstPaintHtml(html: string): string {
  return scriptsInTemplate(lowPriorityScripts(moveStylesheetsFirst(html)));
}

/** The app's script tags Vite writes: module scripts with a `src`, and module preloads. */
const APP_SCRIPT_TAG =
  /<script type="module"[^>]*\ssrc=[^>]*>(?:<\/script>)?|<link rel="modulepreload"[^>]*>/;

/** `html` with its `<link rel="stylesheet">` tags moved in front of the first `<script>` or preload. */
export function moveStylesheetsFirst(html: string): string {
  const stylesheets = html.match(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g) ?? [];
  if (stylesheets.length === 0) return html;
  let rest = html;
  for (const tag of stylesheets) rest = rest.replace(tag, '');
  const first = rest.search(/[ \t]*<(script|link rel="modulepreload")\b/);
  if (first === -1) return html;
  return (
    rest.slice(0, first) +
    stylesheets.map((tag) => tag.replace(/\n?$/, '\n')).join('') +
    rest.slice(first)
  );
}

/** `html` with `fetchpriority="low"` on its module scripts with a `src` and its module preloads. */
export function lowPriorityScripts(html: string): string {
  return html.replace(new RegExp(APP_SCRIPT_TAG.source, 'g'), (tag) =>
    tag.includes('fetchpriority') ? tag : tag.replace(/(><\/script>|>)$/, ' fetchpriority="low"$1'),
  );
}

/**
 * `html` with its module script and module preloads moved into `<template id="alda-scripts">`,
 * followed by the inline `ENTRY_SCRIPT` that adds them when it is time: in `<head>`, before the
 * first stylesheet, since an inline script after a stylesheet waits until that has loaded, and a
 * signed-in start's scripts would wait with it (issue 45).
 */
export function scriptsInTemplate(html: string): string {
  const tags = html.match(new RegExp(`[ \\t]*(?:${APP_SCRIPT_TAG.source})\\n?`, 'g')) ?? [];
  if (tags.length === 0) return html;
  let rest = html;
  for (const tag of tags) rest = rest.replace(tag, '');
  const preloadsFirst = [...tags].sort(
    (a, b) => Number(a.includes('<script')) - Number(b.includes('<script')),
  );
  const template =
    `<template id="${SCRIPTS_TEMPLATE_ID}">${preloadsFirst.map((tag) => tag.trim()).join('')}</template>` +
    `<script>${ENTRY_SCRIPT}</script>\n`;
  const headEnd = rest.indexOf('</head>');
  if (headEnd === -1) throw new Error('scriptsInTemplate: index.html has no </head>');
  const stylesheet = rest.slice(0, headEnd).search(/[ \t]*<link rel="stylesheet"/);
  const at = stylesheet === -1 ? headEnd : stylesheet;
  return rest.slice(0, at) + template + rest.slice(at);
}
