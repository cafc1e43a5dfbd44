import { Footer } from './footer';
import { usePolling } from './use-polling';
import { useSupportOutbox } from './use-support-outbox';

/**
 * The parts of the frame only a signed-in session uses: the footer and the polling of SPEC §4
 * (notifications, data-transfer requests). A chunk of its own with the query cache (issue 45,
 * ADR 0086), so a guest's first screen downloads neither; `signed-in-shell-loader.ts` loads it.
 */
export function SignedInPolling() {
  usePolling();
  useSupportOutbox();
  return null;
}

export { Footer };
