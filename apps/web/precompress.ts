// The build step that precompresses the built app (issue 13): every text asset above MIN_BYTES
// gets a brotli (quality 11) `.br` and a gzip (level 9) `.gz` next to it, so the API serves the
// smallest copy the browser accepts without compressing anything per request
// (apps/api/src/plugins/web-app.ts, `@fastify/static`'s `preCompressed`). Used by the Vite
// plugin in vite.config.ts after `vite build`; apps/api/test/web-app.test.ts runs it on its
// fixture. Node only (node:zlib), no dependency.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a compressed copy saves less than a packet; the server sends these as they are. */
export const MIN_BYTES = 1024;

/**
 * Extensions worth compressing. Source maps are left out (the server never publishes them), and
 * so are images and fonts (already compressed formats); `.ico` is tried but kept only when it
 * shrinks (BMP icons do, PNG-in-ICO does not).
 */
const TEXT_EXTENSIONS = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.xml',
  '.ico',
]);

/** A compressed copy is kept only when it is at least this much smaller than the original. */
const MIN_SAVING = 0.05;

/** zlib runs in libuv's thread pool (4 threads by default); more in flight only queues. */
const CONCURRENCY = 4;

export interface PrecompressedFile {
  /** Path relative to the folder, with `/` separators. */
  file: string;
  bytes: number;
  /** Bytes of the `.br` / `.gz` written, or null when that copy was not worth keeping. */
  br: number | null;
  gz: number | null;
}

/** True for a file the build step compresses, by name and size. */
export function isCompressible(fileName: string, bytes: number): boolean {
  return bytes >= MIN_BYTES && TEXT_EXTENSIONS.has(path.extname(fileName).toLowerCase());
}

/** Brotli at its best quality (11), in text mode; the size hint lets it pick its window. */
export function brotliBest(content: Buffer): Promise<Buffer> {
  return brotli(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
}

/** Gzip at its best level (9). */
export function gzipBest(content: Buffer): Promise<Buffer> {
  return gzipAsync(content, { level: constants.Z_BEST_COMPRESSION });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => {
      const relative = path.relative(dir, file);
      // Dot folders (Vite's .vite/manifest.json) and dotfiles are not served.
      return !relative.split(path.sep).some((part) => part.startsWith('.'));
    });
}

async function compressFile(dir: string, file: string): Promise<PrecompressedFile | null> {
  const content = await readFile(file);
  if (!isCompressible(file, content.length)) return null;
  const [br, gz] = await Promise.all([brotliBest(content), gzipBest(content)]);
  const worth = (compressed: Buffer) => compressed.length <= content.length * (1 - MIN_SAVING);
  const keep = async (compressed: Buffer, extension: string) => {
    if (!worth(compressed)) return null;
    await writeFile(file + extension, compressed);
    return compressed.length;
  };
  return {
    file: path.relative(dir, file).split(path.sep).join('/'),
    bytes: content.length,
    br: await keep(br, '.br'),
    gz: await keep(gz, '.gz'),
  };
}

/**
 * Writes `<file>.br` and `<file>.gz` next to every compressible file under `dir` (recursively,
 * skipping dot folders and files that are already compressed copies). Returns what it wrote.
 */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const files = (await listFiles(dir)).filter(
    (file) => !file.endsWith('.br') && !file.endsWith('.gz'),
  );
  const results: PrecompressedFile[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const result = await compressFile(dir, file);
      if (result) results.push(result);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results.sort((a, b) => a.file.localeCompare(b.file));
}
