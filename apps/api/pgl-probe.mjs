import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const a = new PGlite(); await a.waitReady; console.log('first', Date.now()-t);
t=Date.now(); const b = new PGlite(); await b.waitReady; console.log('second', Date.now()-t);
await b.exec('create table x(a int)');
t=Date.now(); const dump = await b.dumpDataDir('none'); console.log('dump', Date.now()-t, dump.size);
t=Date.now(); const c = new PGlite({loadDataDir: dump}); await c.waitReady; console.log('load', Date.now()-t, (await c.query('select count(*) from x')).rows);
