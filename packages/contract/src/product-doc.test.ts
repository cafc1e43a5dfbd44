import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as appPaths from './app-paths';
import * as constants from './constants';
import { ERROR_MESSAGES } from './error-messages';
import { ERROR_STATUS, isErrorCode } from './errors';
import { LOCALES } from './locale';
import { isValidationKey, VALIDATION_MESSAGES } from './rules/messages';
import * as actionSchemas from './schemas/actions';
import * as orderSchemas from './schemas/orders';

/*
 * Code, tests and docs cite the product's rules as "SPEC §N" — section N of docs/product.md
 * (also in lists such as "SPEC §3 Order, §4 Orders, §7" and on continuation lines). This test
 * keeps every citation pointing at a section that exists, and keeps the messages and constants
 * the page quotes equal to the code's.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PRODUCT_DOC = 'docs/product.md';
const THIS_FILE = path.relative(root, fileURLToPath(import.meta.url));
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report']);
const TEXT_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|html|css)$/;

/** Where citations live: apps/*\/{src,test,e2e}, apps/*\/README.md, packages/*\/src, docs, README.md. */
function citationRoots(): string[] {
  const under = (dir: string) =>
    readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${dir}/${d.name}`);
  return [
    ...under('apps').flatMap((app) => [
      `${app}/src`,
      `${app}/test`,
      `${app}/e2e`,
      `${app}/README.md`,
    ]),
    ...under('packages').map((pkg) => `${pkg}/src`),
    'docs',
    'README.md',
  ];
}

function filesUnder(entry: string): string[] {
  const stat = statSync(path.join(root, entry), { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return TEXT_FILE.test(entry) ? [entry] : [];
  return readdirSync(path.join(root, entry), { withFileTypes: true }).flatMap((d) =>
    SKIP_DIRS.has(d.name) ? [] : filesUnder(`${entry}/${d.name}`),
  );
}

/** The numbers of the `## §N …` headings of a product document, in order. */
function productSections(markdown: string): string[] {
  return [...markdown.matchAll(/^## §(\d+)\b/gm)].map((m) => m[1] ?? '');
}

/** Another document's paragraph ("RFC 9110 §15", "ISO 8601 §4"): not ours. */
const FOREIGN = /\b(?:RFC|ISO|IEC|ETSI|GDPR)[\s\d.:-]*$/;

/**
 * Every section a text cites, with its line: each `§N` (a "SPEC §1, §5" list, "§3–§4", a "§9"
 * that continues a citation on the next line). The code uses § for nothing else; a § that
 * follows another document's name is skipped.
 */
function citations(text: string): { section: string; line: number }[] {
  const found: { section: string; line: number }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/§(\d+)/g)) {
      if (FOREIGN.test(line.slice(Math.max(0, m.index - 24), m.index))) continue;
      found.push({ section: m[1] ?? '', line: i + 1 });
    }
  });
  return found;
}

/** Citations of sections `sections` does not have, as `file:line cites §N`. */
function dangling(
  sources: readonly { file: string; text: string }[],
  sections: readonly string[],
): string[] {
  const known = new Set(sections);
  return sources.flatMap(({ file, text }) =>
    citations(text)
      .filter((c) => !known.has(c.section))
      .map((c) => `${file}:${c.line} cites SPEC §${c.section}`),
  );
}

/** The text of section `n` of the product document: from its heading to the next `## `. */
function section(markdown: string, n: number): string {
  const start = markdown.search(new RegExp(`^## §${n}\\b`, 'm'));
  if (start < 0) return '';
  const next = markdown.slice(start + 3).search(/^## /m);
  return next < 0 ? markdown.slice(start) : markdown.slice(start, start + 3 + next);
}

/** The body rows of the markdown tables of a text, as trimmed cells. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

const unquote = (cell: string | undefined) => /^`([^`]+)`$/.exec(cell ?? '')?.[1];

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(path.join(root, file), 'utf8')) as unknown;
}

/** A dotted key (`status.later`) of a nested i18n object; undefined when absent. */
function lookup(messages: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[part]
          : undefined,
      messages,
    );
}

const doc = readFileSync(path.join(root, PRODUCT_DOC), 'utf8');
const sources = citationRoots()
  .flatMap(filesUnder)
  .filter((file) => file !== THIS_FILE)
  .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

describe('docs/product.md, the home of every "SPEC §N" citation', () => {
  it('has the sections §1–§9, each once, in order', () => {
    expect(productSections(doc)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('resolves every citation in code, tests and docs to one of its sections', () => {
    expect(dangling(sources, productSections(doc))).toEqual([]);
    // The walk really reads the code: it holds about a thousand citations in hundreds of files.
    expect(sources.flatMap((s) => citations(s.text)).length).toBeGreaterThan(500);
    expect(sources.some((s) => s.file.startsWith('apps/web/src/'))).toBe(true);
    expect(sources.some((s) => s.file.startsWith('apps/api/test/'))).toBe(true);
  });

  it('would fail, naming file and line, if a cited section lost its heading', () => {
    const withoutSeven = productSections(doc.replace(/^## §7\b.*$/m, '## The calls'));
    const broken = dangling(sources, withoutSeven);
    expect(broken.length).toBeGreaterThan(0);
    expect(broken[0]).toMatch(/^[\w./-]+:\d+ cites SPEC §7$/);
  });

  it('reads citations the way the code writes them', () => {
    const text = [
      "it('checks (SPEC §2, §7)', …)",
      '/** Orders (SPEC §3 Order, §4 Orders, §12). The',
      ' * month §9 totals; see RFC 9110 §15.5 */',
    ].join('\n');
    expect(citations(text)).toEqual([
      { section: '2', line: 1 },
      { section: '7', line: 1 },
      { section: '3', line: 2 },
      { section: '4', line: 2 },
      { section: '12', line: 2 },
      { section: '9', line: 3 },
    ]);
    expect(dangling([{ file: 'x.ts', text }], ['2', '3', '4', '7', '9'])).toEqual([
      'x.ts:2 cites SPEC §12',
    ]);
  });

  it('quotes the API error catalogue (§8) as errors.ts and locales/errors.*.json have it', () => {
    const rows = tableRows(section(doc, 8)).filter((r) => /^\d{3}$/.test(r[1] ?? ''));
    expect(rows.length).toBeGreaterThan(20);
    for (const [cell, status, fo, en] of rows) {
      const code = unquote(cell);
      expect(isErrorCode(code), `${cell} is an error code`).toBe(true);
      if (!isErrorCode(code)) continue;
      expect({ code, status: Number(status), fo, en }).toEqual({
        code,
        status: ERROR_STATUS[code],
        fo: ERROR_MESSAGES.fo[code],
        en: ERROR_MESSAGES.en[code],
      });
    }
  });

  it('quotes the validation messages (§5) as locales/validation.*.json has them', () => {
    const rows = tableRows(section(doc, 5)).filter((r) => /^`[A-Z_]+`$/.test(r[1] ?? ''));
    expect(rows.length).toBeGreaterThan(10);
    for (const [, cell, fo, en] of rows) {
      const key = unquote(cell);
      expect(isValidationKey(key), `${cell} is a validation key`).toBe(true);
      if (!isValidationKey(key)) continue;
      expect({ key, fo, en }).toEqual({
        key,
        fo: VALIDATION_MESSAGES.fo[key],
        en: VALIDATION_MESSAGES.en[key],
      });
    }
  });

  it("quotes the app's own messages (§8) as apps/web/src/locales has them", () => {
    const locales = Object.fromEntries(
      LOCALES.map((l) => [l, readJson(`apps/web/src/locales/${l}.json`)]),
    );
    const rows = tableRows(section(doc, 8)).filter((r) => /^`[a-z][\w.]*`$/.test(r[1] ?? ''));
    expect(rows.length).toBeGreaterThan(10);
    for (const [, cell, fo, en] of rows) {
      const key = unquote(cell) ?? '';
      expect({ key, fo, en }).toEqual({
        key,
        fo: lookup(locales.fo, key),
        en: lookup(locales.en, key),
      });
    }
  });

  it('names only constants (§9) that the contract exports', () => {
    const exported = new Set(
      [constants, appPaths, actionSchemas, orderSchemas].flatMap((m) => Object.keys(m)),
    );
    const table = section(doc, 9).split(/^\| item \| value \| set in \|$/m)[0] ?? '';
    const names = tableRows(table).flatMap((r) =>
      [...(r[2] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] ?? ''),
    );
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((n) => !exported.has(n))).toEqual([]);
  });

  it('links only to decision records that exist', () => {
    const links = [...doc.matchAll(/\]\((decisions\/[^)]*)\)/g)].map((m) => m[1] ?? '');
    expect(links.length).toBeGreaterThan(10);
    const missing = links.filter(
      (l) => !statSync(path.join(root, 'docs', l), { throwIfNoEntry: false }),
    );
    expect(missing).toEqual([]);
  });
});
