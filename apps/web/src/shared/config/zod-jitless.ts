import { z } from 'zod/v4';

/*
 * The API serves the app under a CSP without 'unsafe-eval'. Zod probes `new Function` (for its
 * JIT) when the first object schema is built, and the browser reports that as a CSP violation
 * even though zod catches it. Jitless mode skips the probe.
 *
 * Zod is not in the entry chunk: it loads with the screens and schemas that use it. So that the
 * setting is in force wherever zod is loaded, the app's build resolves every `import … from 'zod'`
 * to this module (vite.config.ts `resolve.alias`): it runs before any module that builds a
 * schema. The contract's schemas use 'zod/mini', which goes through `zod-mini-jitless.ts`.
 */
z.config({ jitless: true });

// 'zod/v4' is the same module as 'zod' (its classic API), under a name the alias leaves alone.
export * from 'zod/v4';
export { z, z as default };
