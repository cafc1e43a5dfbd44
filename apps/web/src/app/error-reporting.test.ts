import { describe, expect, it, vi } from 'vitest';
import { initErrorReporting, sentryOptions } from './error-reporting';

describe('error reporting (SPEC §9)', () => {
  const S = {
    browserTracingIntegration: vi.fn(() => ({ name: 'BrowserTracing' })),
    replayIntegration: vi.fn((options: unknown) => ({ name: 'Replay', options })),
  };

  it('uses the SPEC §9 settings: production, all traces, replay 10 % and 100 % on error, masked text and inputs', () => {
    const options = sentryOptions('https://key@sentry.example/1', S as never);
    expect(options).toMatchObject({
      dsn: 'https://key@sentry.example/1',
      environment: 'production',
      release: 'alda-web@3.0.0',
      tracesSampleRate: 1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
    });
    expect(S.replayIntegration).toHaveBeenCalledWith({ maskAllText: true, maskAllInputs: true });
  });

  it('stays off, and does not even load Sentry, without a DSN', async () => {
    const load = vi.fn();
    expect(await initErrorReporting('', load)).toBe(false);
    expect(await initErrorReporting(undefined, load)).toBe(false);
    expect(load).not.toHaveBeenCalled();
  });

  it('loads and starts Sentry when a DSN is configured', async () => {
    const init = vi.fn();
    const load = vi.fn(async () => ({ ...S, init, captureException: vi.fn() }) as never);
    expect(await initErrorReporting('https://key@sentry.example/1', load)).toBe(true);
    expect(init).toHaveBeenCalledWith(expect.objectContaining({ environment: 'production' }));
  });
});
