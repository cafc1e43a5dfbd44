import { z } from 'zod';

/*
 * The API serves the app under a CSP without 'unsafe-eval'. Zod probes `new Function` (for its
 * JIT) when the first object schema is built, and the browser reports that as a CSP violation
 * even though zod catches it. Jitless mode skips the probe. This module must be evaluated before
 * any schema module, so main.tsx imports it first.
 */
z.config({ jitless: true });
