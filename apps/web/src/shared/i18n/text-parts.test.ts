import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '@/locales/en.json';
import enFirst from '@/locales/en.json?first';
import enLater from '@/locales/en.json?later';
import fo from '@/locales/fo.json';
import foFirst from '@/locales/fo.json?first';
import foLater from '@/locales/fo.json?later';
import foErrors from '@alda/contract/locales/errors.fo.json';
import foErrorsFirst from '@alda/contract/locales/errors.fo.json?first';
import foErrorsLater from '@alda/contract/locales/errors.fo.json?later';
import enErrors from '@alda/contract/locales/errors.en.json';
import enErrorsFirst from '@alda/contract/locales/errors.en.json?first';
import enErrorsLater from '@alda/contract/locales/errors.en.json?later';
import { FIRST_ERROR_CODES, LATER_SECTIONS } from './text-parts';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const contract = path.resolve(src, '../../../packages/contract/src');
const ROUTES_FILE = path.join(src, 'app/routes.tsx');
/** The screens shown before the later texts (routes.tsx FIRST_SCREENS). */
const FIRST_SCREEN_FILES = [
  'features/home/home-screen.tsx',
  'features/auth/login-chooser-screen.tsx',
  'features/packages/packages-screen.tsx',
].map((file) => path.join(src, file));

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(src, spec.slice(2));
  else if (spec.startsWith('@alda/contract/'))
    base = path.join(contract, spec.slice('@alda/contract/'.length));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((file) => /\.tsx?$/.test(file) && existsSync(file)) ?? null;
}

/**
 * The source files the app can run before a later screen's route: everything main.tsx imports,
 * statically or not, except the screens of routes.tsx other than the first ones.
 */
function firstScreenSources(): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string | null) => {
    if (!file || seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s+['"]([^'"]+)['"]/g))
      visit(resolveImport(file, (m[1] ?? m[2])!));
    for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const target = resolveImport(file, m[1]!);
      if (file === ROUTES_FILE && !FIRST_SCREEN_FILES.includes(target ?? '')) continue;
      visit(target);
    }
  };
  visit(path.join(src, 'main.tsx'));
  return seen;
}

describe("the first screens' texts and the later ones (issue 13)", () => {
  it("splits each language's texts into the two parts, every section in exactly one", () => {
    for (const [all, first, later] of [
      [fo, foFirst, foLater],
      [en, enFirst, enLater],
    ] as const) {
      expect(Object.keys(later).sort()).toEqual([...LATER_SECTIONS].sort());
      expect(Object.keys(first).filter((section) => Object.hasOwn(later, section))).toEqual([]);
      expect({ ...first, ...later }).toEqual(all);
    }
  });

  it('the shell, login, home and the purchase screen use no text of a later section', () => {
    const files = firstScreenSources();
    // The scan follows the app's imports: home, login, the shell and what they load later.
    expect(files.size).toBeGreaterThan(80);
    expect(files).toContain(FIRST_SCREEN_FILES[0]);
    // A key is a string literal: 'section.key', `section.${…}` or the bare 'section'.
    const key = new RegExp(`['"\`](${LATER_SECTIONS.join('|')})(?:\\.[\\w$]|['"\`])`);
    const offenders = [...files]
      // Route titles are shown with their screen, which waits for its texts (routes.tsx); the
      // list of sections names them. The contract has no text of the app: a literal of it that
      // looks like a section is a value of the API (the notification kinds 'family', 'support').
      .filter(
        (file) =>
          file !== ROUTES_FILE &&
          file !== path.join(src, 'shared/i18n/text-parts.ts') &&
          !file.startsWith(contract + path.sep),
      )
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${path.relative(src, file)}:${i + 1}` }))
          .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && key.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it("splits the API error texts: the first screens' codes first, the rest later (issue 33)", () => {
    for (const [all, first, later] of [
      [foErrors, foErrorsFirst, foErrorsLater],
      [enErrors, enErrorsFirst, enErrorsLater],
    ] as const) {
      expect(Object.keys(first).sort()).toEqual([...FIRST_ERROR_CODES].sort());
      expect({ ...first, ...later }).toEqual(all);
      expect(Object.keys(later).filter((code) => Object.hasOwn(first, code))).toEqual([]);
    }
  });

  it('the shell, login, home and the purchase screen name no API error text of the later part', () => {
    const named = [...firstScreenSources()].flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(/['"`]([A-Z][A-Z_]+)['"`],\s*\{\s*ns:\s*'errors'/g),
      ].map((m) => m[1]!),
    );
    // The client's own codes (httpErrors) are in the first part's `errors` too.
    const first = new Set<string>([...FIRST_ERROR_CODES, ...Object.keys(fo.httpErrors)]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((code) => !first.has(code))).toEqual([]);
  });
});
