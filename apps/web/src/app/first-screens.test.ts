import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@/shared/config/paths';
import { FIRST_SCREEN_GETS } from '@alda/contract/start-up';
import { FIRST_SCREENS } from '../../first-screens';

const appRoot = path.resolve(__dirname, '../..');

describe("the first screens' preloads (issue 45, first-screens.ts)", () => {
  it('are for home and the purchase screen when signed in, by their paths in ROUTES', () => {
    expect(Object.keys(FIRST_SCREENS.signedIn)).toEqual([ROUTES.home, ROUTES.buyPackage]);
  });

  it("send early the purchase screen's own GETs, by its path in ROUTES", () => {
    expect(Object.keys(FIRST_SCREEN_GETS)).toEqual([ROUTES.buyPackage]);
  });

  it('name source files that exist', () => {
    const modules = [
      ...FIRST_SCREENS.always,
      ...FIRST_SCREENS.guest,
      ...Object.values(FIRST_SCREENS.signedIn).flat(),
    ];
    for (const module of modules)
      expect(existsSync(path.resolve(appRoot, module)), module).toBe(true);
  });
});
