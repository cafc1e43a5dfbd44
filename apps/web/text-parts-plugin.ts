import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { FIRST_ERROR_CODES, LATER_SECTIONS } from './src/shared/i18n/text-parts';

const PART = /\.json\?(first|later)$/;
const PREFIX = '\0text-part:';

/**
 * `import texts from '@/locales/fo.json?first'` (or `?later`): that language's texts with only
 * the first screens' sections, or only the later screens' (`LATER_SECTIONS`,
 * src/shared/i18n/text-parts.ts, the one list of them), each a module of its own so the bundler
 * puts each part in its own chunk (issue 13, ADR 0065). The contract's error texts
 * (`errors.<lang>.json?first` / `?later`) are split the same way by `FIRST_ERROR_CODES`. The
 * build, the dev server and the unit tests use it.
 */
export function textParts(): Plugin {
  const laterSections = new Set<string>(LATER_SECTIONS);
  const firstErrors = new Set<string>(FIRST_ERROR_CODES);
  /** Whether a top-level key of `file` belongs to the later part. */
  const isLater = (file: string, key: string) =>
    /(^|[\\/])errors\.\w+\.json$/.test(file) ? !firstErrors.has(key) : laterSections.has(key);
  return {
    name: 'alda:text-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      const part = PART.exec(source)?.[1];
      if (!part) return null;
      const file = await this.resolve(source.replace(/\?\w+$/, ''), importer, { skipSelf: true });
      // Not ending in .json: Vite's JSON plugin would read the generated module as JSON.
      return file ? `${PREFIX}${file.id.replace(/\.json$/, '')}.${part}.js` : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const [, base, part] = /^(.*)\.(first|later)\.js$/.exec(id.slice(PREFIX.length)) ?? [];
      if (!base) return null;
      const file = `${base}.json`;
      this.addWatchFile(file);
      const texts = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const wanted = Object.entries(texts).filter(
        ([key]) => isLater(file, key) === (part === 'later'),
      );
      return `export default ${JSON.stringify(Object.fromEntries(wanted))};`;
    },
  };
}
