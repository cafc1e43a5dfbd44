import { z } from 'zod/v4';

/*
 * The API serves the console under a CSP without 'unsafe-eval'. Zod probes `new Function` (for
 * its JIT) when the first object schema is built, and the browser reports that as a CSP violation
 * even though zod catches it; jitless mode skips the probe. The build resolves every
 * `import … from 'zod'` to this module (vite.config.ts), so the setting is in force before any
 * schema is built; the contract's 'zod/mini' goes through `zod-mini-jitless.ts`. As
 * apps/web/src/shared/config/zod-jitless.ts.
 */
z.config({ jitless: true });

// 'zod/v4' is the same module as 'zod' (its classic API), under a name the alias leaves alone.
export * from 'zod/v4';
export { z, z as default };
