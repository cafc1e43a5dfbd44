import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '@/app/areas';

const dir = import.meta.dirname;
const namespaces = (lang: string) =>
  readdirSync(path.join(dir, lang))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
const read = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(dir, lang, `${ns}.json`), 'utf8')) as Record<string, unknown>;

/** Every key of a text file, as dotted paths. */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) =>
    keys(inner, prefix ? `${prefix}.${key}` : key),
  );
}

describe('the console texts (src/locales/<lang>/<namespace>.json)', () => {
  it('has the same namespaces in Faroese and English', () => {
    expect(namespaces('en')).toEqual(namespaces('fo'));
    expect(namespaces('fo')).toContain('common');
  });

  it.each(namespaces('fo'))('%s: English has exactly the Faroese keys, none empty', (ns) => {
    expect(keys(read('en', ns)).sort()).toEqual(keys(read('fo', ns)).sort());
    for (const lang of ['fo', 'en']) {
      for (const key of keys(read(lang, ns))) {
        const text = key
          .split('.')
          .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], read(lang, ns));
        expect(typeof text === 'string' && text.trim().length > 0, `${lang}/${ns}: ${key}`).toBe(
          true,
        );
      }
    }
  });

  it.each(namespaces('fo'))('%s: its keys are typed (a line in shared/i18next.d.ts)', (ns) => {
    const declaration = readFileSync(path.join(dir, '../shared/i18next.d.ts'), 'utf8');
    expect(declaration).toMatch(
      new RegExp(`\\b'?${ns}'?: typeof import\\('\\.\\./locales/fo/${ns}\\.json'\\);`),
    );
  });

  it('names every area and role in the navigation texts', () => {
    const common = read('fo', 'common') as {
      nav: Record<string, string>;
      roles: Record<string, string>;
    };
    for (const area of AREAS) expect(common.nav[area.id], area.id).toBeTruthy();
    expect(Object.keys(common.roles).sort()).toEqual([
      'admin',
      'content',
      'provisioning',
      'support',
    ]);
  });
});
