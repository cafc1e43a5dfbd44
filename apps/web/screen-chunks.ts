import path from 'node:path';
import type { Plugin, UserConfig } from 'vite';

export interface ScreenChunk {
  /** The chunk's name (its file is `assets/<name>-<hash>.js`). */
  name: string;
  /** Source files (relative to the app's root) whose static imports make up the screen. */
  modules: readonly string[];
}

export interface ScreenChunksOptions {
  /**
   * The chunk that holds what the entry imports statically (the renderer, the router, i18next,
   * the app's shell), so the first load is the entry and this one file rather than ~20 small
   * ones, each gzipped alone and each a request.
   */
  shell: string;
  /** The screens, in order: a module two of them share goes to the first one's chunk. */
  screens: readonly ScreenChunk[];
  /**
   * Source files of other first screens (the login screen): what they import stays out of the
   * chunks, so they do not load another screen to show theirs.
   */
  keepOut: readonly string[];
  /** Modules left to the bundler's own chunks (e.g. a library other screens share without it). */
  exclude: RegExp;
  /**
   * One chunk for what the screens share with the `keepOut` screens, less what the first of those
   * (`notIn`, a guest's first screen) loads (issue 45). Left to the bundler, those modules were
   * ten chunks of about 1 KiB, each a request of its own for home: on HTTP/1.1 a browser has six
   * connections to the server, and Lighthouse's simulation of a phone shares its bandwidth among
   * the requests in flight, so home's largest script got a sixth of it while they came in.
   */
  shared?: { name: string; notIn: readonly string[] };
  /**
   * Modules the entry reaches only through a library's index, of which it uses one small part
   * (TanStack Query's context, issue 45): in the shell, the whole index would go with it, since
   * the later chunks use the rest; left to the bundler, the entry carries only what it uses.
   */
  shellExclude?: RegExp;
}

/**
 * Puts the modules a lazy screen needs into one chunk per screen instead of the dozens of small
 * shared chunks the bundler makes by default (issue 13): home signed in fetched 33 files of
 * 0.1–2 KiB, each a request of its own (on HTTP/1.1, six at a time) and, gzipped alone, with its
 * own dictionary; Lighthouse home went from 91 to 96, LCP 3.3 → 2.5 s. A screen's chunk holds
 * the static imports of its `modules` that neither the entry nor the `keepOut` screens nor an
 * earlier screen load (so those carry nothing more), less `exclude`. Other screens that share
 * some of these modules load the same chunk, which a signed-in customer has from home. Build only.
 */
export function screenChunks(options: ScreenChunksOptions): Plugin {
  let root = '';
  /** Module id → the name of the screen chunk it goes to (worked out once the graph is known). */
  const chunkOf = new Map<string, string>();
  return {
    name: 'alda:screen-chunks',
    apply: 'build',
    config(): UserConfig {
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  options.shell,
                  ...options.screens.map((screen) => screen.name),
                  ...(options.shared ? [options.shared.name] : []),
                ].map((name, index, names) => ({
                  name,
                  test: (id: string) => chunkOf.get(id) === name,
                  priority: names.length - index,
                  // The chunk holds exactly the modules above: its imports from the entry or
                  // zod stay where they are (with them, the entry would carry home).
                  includeDependenciesRecursively: false,
                })),
              },
            },
          },
        },
      };
    },
    configResolved(config) {
      root = config.root;
    },
    buildEnd(error) {
      if (error) return;
      chunkOf.clear();
      const staticClosure = (ids: Iterable<string>): Set<string> => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          for (const dep of this.getModuleInfo(id)?.importedIds ?? []) visit(dep);
        };
        for (const id of ids) visit(id);
        return seen;
      };
      const idOf = (module: string) => {
        const id = path.resolve(root, module);
        if (!this.getModuleInfo(id)) throw new Error(`screenChunks: no module ${module}`);
        return id;
      };
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const shell = staticClosure(entries);
      // The entry's own script (index.html → main.tsx) stays the entry chunk; the rest goes.
      const entryScripts = new Set(
        entries.flatMap((id) => [id, ...(this.getModuleInfo(id)?.importedIds ?? [])]),
      );
      for (const id of shell)
        if (!entryScripts.has(id) && !options.shellExclude?.test(id))
          chunkOf.set(id, options.shell);
      // What the shell leaves out (`shellExclude`) may still go to a screen's chunk.
      const inShell = [...shell].filter((id) => entryScripts.has(id) || chunkOf.has(id));
      const keptOut = staticClosure(options.keepOut.map(idOf));
      const elsewhere = new Set([...inShell, ...keptOut]);
      if (options.shared) {
        const notShared = new Set([...inShell, ...staticClosure(options.shared.notIn.map(idOf))]);
        const screens = staticClosure(
          options.screens.flatMap((screen) => screen.modules.map(idOf)),
        );
        for (const id of screens)
          if (keptOut.has(id) && !notShared.has(id) && !options.exclude.test(id))
            chunkOf.set(id, options.shared.name);
      }
      for (const screen of options.screens) {
        for (const id of staticClosure(screen.modules.map(idOf))) {
          if (!elsewhere.has(id) && !chunkOf.has(id) && !options.exclude.test(id))
            chunkOf.set(id, screen.name);
        }
      }
    },
  };
}
