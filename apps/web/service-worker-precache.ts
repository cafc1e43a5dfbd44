/** What the plugin reads of a bundle's output: Rolldown's chunks and assets, by file name. */
export type BundleFile =
  | {
      type: 'chunk';
      fileName: string;
      isEntry: boolean;
      imports: readonly string[];
      moduleIds: readonly string[];
      viteMetadata?: { importedCss: ReadonlySet<string> };
    }
  | { type: 'asset'; fileName: string };

export interface PrecacheOptions {
  /**
   * Modules (a path ending, e.g. `src/features/home/home-screen.tsx`) whose chunks, with their
   * static imports and CSS, belong to the shell next to the entry: the first screens and texts.
   */
  shellModules: readonly string[];
  /** Files of `public/`, copied as they are (icons). */
  publicFiles: readonly string[];
}

/**
 * The files the service worker stores when it installs (issue 16 item 4): index.html, the entry
 * chunk with its static imports, the chunks of `shellModules` with theirs, their CSS and the
 * public files, as root-relative URLs in a stable order. Other lazy chunks are cached when they
 * are first fetched. Throws when a shell module is in no chunk: a renamed screen must not quietly
 * leave the offline app without it.
 */
export function precacheList(
  bundle: Readonly<Record<string, BundleFile>>,
  { shellModules, publicFiles }: PrecacheOptions,
): string[] {
  const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const files = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = byName.get(fileName);
    if (!chunk || files.has(fileName)) return;
    files.add(fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const dep of chunk.imports) visit(dep);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
  for (const module of shellModules) {
    const holders = chunks.filter((chunk) => chunk.moduleIds.some((id) => id.endsWith(module)));
    if (holders.length === 0) throw new Error(`service worker: no chunk holds ${module}`);
    for (const chunk of holders) visit(chunk.fileName);
  }
  const html = Object.values(bundle).some((file) => file.fileName === 'index.html');
  if (!html) throw new Error('service worker: the build has no index.html');
  return [
    '/index.html',
    ...[...files].sort().map((file) => `/${file}`),
    ...[...publicFiles].sort().map((file) => `/${file}`),
  ];
}
