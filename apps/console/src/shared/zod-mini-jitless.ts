import { z } from 'zod/v4/mini';

/*
 * The contract's schemas use zod/mini, the tree-shakable API of the same library. Like
 * `zod-jitless.ts` for 'zod', the console's build and tests resolve every
 * `import … from 'zod/mini'` to this module (vite.config.ts `resolve.alias`), so jitless mode is
 * on before any schema is built: the CSP has no 'unsafe-eval', and zod probes `new Function` when
 * it builds the first object schema.
 */
z.config({ jitless: true });

// 'zod/v4/mini' is the same module as 'zod/mini', under a name the alias leaves alone.
export * from 'zod/v4/mini';
export { z, z as default };
