import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import raw from './fo-localities.json';
import {
  foldPlaceName,
  isKnownPostCode,
  LOCALITIES,
  localitySchema,
  PLACE_NAME_ALIASES,
  placeByName,
  placesByPostCode,
  searchLocalities,
} from './lookup';

const names = (list: readonly { name: string }[]) => list.map((l) => l.name);

describe('Faroese locality reference list (SPEC §3 "Locality reference list")', () => {
  it('has about 120 places, each {postCode, name} (SPEC §3)', () => {
    expect(LOCALITIES.length).toBeGreaterThanOrEqual(110);
    expect(LOCALITIES.length).toBeLessThanOrEqual(130);
    for (const entry of raw)
      expect(z.strictObject(localitySchema.shape).parse(entry)).toEqual(entry);
  });

  it('has unique names and no PO-box-only codes (SPEC §3)', () => {
    expect(new Set(names(LOCALITIES)).size).toBe(LOCALITIES.length);
    for (const box of [
      '110',
      '165',
      '215',
      '355',
      '375',
      '405',
      '515',
      '535',
      '610',
      '710',
      '810',
      '910',
    ]) {
      expect(isKnownPostCode(box), box).toBe(false);
    }
  });

  it.each([
    ['Tórshavn', '100'],
    ['Klaksvík', '700'],
    ['Vágur', '900'],
    ['Tvøroyri', '800'],
    ['Runavík', '620'],
    ['Vestmanna', '350'],
  ])('has %s at %s (SPEC §3)', (name, code) => {
    expect(placeByName(name)?.postCode).toBe(code);
    expect(names(placesByPostCode(code))).toContain(name);
  });

  it('has Mjørkadalur with an empty postal code, the only such place (SPEC §3)', () => {
    expect(placeByName('Mjørkadalur')).toEqual({ postCode: '', name: 'Mjørkadalur' });
    expect(LOCALITIES.filter((l) => l.postCode === '')).toHaveLength(1);
    expect(placesByPostCode('')).toEqual([]);
    expect(isKnownPostCode('')).toBe(false);
  });

  it('carries the qualified names exactly as SPEC writes them (SPEC §3)', () => {
    expect(placeByName('Nes, Eysturoy')?.postCode).toBe('655');
    expect(placeByName('Nes, Vágur')?.postCode).toBe('925');
    expect(placeByName('Syðradalur, Kalsoy')?.postCode).toBe('795');
    expect(placeByName('Syðradalur, Streymoy')?.postCode).toBe('177');
    expect(placeByName('Nes')).toBeUndefined();
    expect(placeByName('Syðradalur')).toBeUndefined();
  });

  it('returns several places for a shared postal code (SPEC §3)', () => {
    const shared = [...new Set(LOCALITIES.map((l) => l.postCode))].filter(
      (code) => code && placesByPostCode(code).length > 1,
    );
    expect(shared.length).toBeGreaterThan(0);
    expect(names(placesByPostCode('485')).sort()).toEqual(['Skálabotnur', 'Skálafjørður']);
  });

  it('keeps Faroese spelling (ð, ø, í) rather than Danish transliteration (SPEC §3)', () => {
    for (const name of [
      'Miðvágur',
      'Eiði',
      'Viðareiði',
      'Velbastaður',
      'Froðba',
      'Víkarbyrgi',
      'Svínoy',
    ]) {
      expect(placeByName(name)?.name, name).toBe(name);
    }
    expect(LOCALITIES.some((l) => /rdur\b|Eidi|Midv|Nord|Sydr/.test(l.name))).toBe(false);
  });

  it('matches names case- and diacritic-insensitively (SPEC §3)', () => {
    expect(placeByName('torshavn')?.name).toBe('Tórshavn');
    expect(placeByName('  MIDVAGUR ')?.name).toBe('Miðvágur');
    expect(placeByName('nes (vagur)')?.name).toBe('Nes, Vágur');
    expect(placeByName('Sydradalur Kalsoy')?.name).toBe('Syðradalur, Kalsoy');
    expect(placeByName('Gotueidi')?.name).toBe('Gøtueiði');
    expect(placeByName('Atlantis')).toBeUndefined();
  });

  it('understands the other spellings registers use (SPEC §3)', () => {
    expect(placeByName('Havn')?.name).toBe('Tórshavn');
    expect(placeByName('Haldórsvík')?.name).toBe('Haldarsvík');
    expect(placeByName('Undir Gøtueiði')?.name).toBe('Gøtueiði');
    for (const target of Object.values(PLACE_NAME_ALIASES))
      expect(placeByName(target)?.name).toBe(target);
  });

  it('folds Faroese letters and punctuation (SPEC §3)', () => {
    expect(foldPlaceName('Syðradalur, Streymoy')).toBe('sydradalur streymoy');
    expect(foldPlaceName('Æðuvík')).toBe('aeduvik');
    expect(foldPlaceName('Søldarfjørður')).toBe('soldarfjordur');
  });

  it('searches by postal code prefix for a picker (SPEC §3)', () => {
    expect(names(searchLocalities('10'))).toEqual(['Tórshavn']);
    expect(searchLocalities('6', 100).every((l) => l.postCode.startsWith('6'))).toBe(true);
    expect(searchLocalities('999')).toEqual([]);
  });

  it('searches names loosely, best matches first (SPEC §3)', () => {
    expect(names(searchLocalities('tors'))[0]).toBe('Tórshavn');
    expect(names(searchLocalities('nes', 20)).slice(0, 3)).toEqual([
      'Nes, Eysturoy',
      'Nes, Vágur',
      'Nesvík',
    ]);
    expect(names(searchLocalities('eysturoy'))).toEqual(['Nes, Eysturoy']);
    expect(names(searchLocalities('fjørður', 50))).toContain('Kollafjørður');
    expect(searchLocalities('xyz')).toEqual([]);
    expect(searchLocalities('', 5)).toHaveLength(5);
    expect(searchLocalities('a', 3)).toHaveLength(3);
  });
});
