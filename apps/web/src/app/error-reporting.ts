import type * as SentryModule from '@sentry/react';
import { APP_VERSION, ERROR_REPORTING } from '@alda/contract/constants';

type Sentry = typeof SentryModule;

let sentry: Sentry | null = null;

/** The Sentry options of SPEC §9 (production environment, all traces, replay 10 % / 100 % on error, masked). */
export function sentryOptions(
  dsn: string,
  S: Pick<Sentry, 'browserTracingIntegration' | 'replayIntegration'>,
) {
  return {
    dsn,
    environment: ERROR_REPORTING.environment,
    release: `alda-web@${APP_VERSION}`,
    tracesSampleRate: ERROR_REPORTING.tracesSampleRate,
    replaysSessionSampleRate: ERROR_REPORTING.replaysSessionSampleRate,
    replaysOnErrorSampleRate: ERROR_REPORTING.replaysOnErrorSampleRate,
    integrations: [
      S.browserTracingIntegration(),
      S.replayIntegration({
        maskAllText: ERROR_REPORTING.maskAllText,
        maskAllInputs: ERROR_REPORTING.maskAllInputs,
      }),
    ],
  };
}

/**
 * Starts error reporting when a DSN is configured (VITE_SENTRY_DSN). Sentry is imported lazily,
 * so a build without a DSN never downloads it.
 */
export async function initErrorReporting(
  dsn: string | undefined = import.meta.env.VITE_SENTRY_DSN,
  load: () => Promise<Sentry> = () => import('@sentry/react'),
): Promise<boolean> {
  if (!dsn) return false;
  const S = await load();
  S.init(sentryOptions(dsn, S));
  sentry = S;
  return true;
}

/** Reports an unexpected error, when error reporting is on. */
export function reportError(error: unknown): void {
  sentry?.captureException(error);
}
