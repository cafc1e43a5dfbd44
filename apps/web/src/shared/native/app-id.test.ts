import { describe, expect, it } from 'vitest';
import { NATIVE_APP_ID } from '@alda/contract/constants';
import capacitorConfig from '../../../capacitor.config';

describe('native app id (ADR 0054)', () => {
  it('the Capacitor shell is the app the API names in its App Link / Universal Link files', () => {
    expect(capacitorConfig.appId).toBe(NATIVE_APP_ID);
  });
});
