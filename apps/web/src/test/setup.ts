/**
 * Test environment of the web app: the shared strict environment (strict-environment.ts), and
 * the device's own state reset before each test.
 */
import './strict-environment';
import { beforeEach } from 'vitest';
import { onlineManager } from '@tanstack/react-query';
import { overridePlatform } from '@/shared/native/platform';

beforeEach(() => {
  overridePlatform(null);
  // The connection is the app's one shared state of the device (connectivity.ts).
  onlineManager.setOnline(true);
});
