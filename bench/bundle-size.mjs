// Gzip size of the JavaScript a phone downloads before it can show each route: the entry chunk
// with its static imports, plus the route's lazy chunk with its own static imports.
// Reads Vite's build manifest (apps/web/dist/.vite/manifest.json); builds the app if it is missing.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const dist = path.resolve('apps/web/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  const r = spawnSync('npm', ['run', 'build', '-w', '@alda/web'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const gz = new Map();
const gzipOf = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gz.get(file);
};
/** All JS files a chunk needs before it runs: itself and its static imports, transitively. */
const closure = (key, seen = new Set()) => {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
};
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const initial = closure(entryKey);
const initialSize = [...initial].reduce((s, f) => s + gzipOf(f), 0);
const css = (manifest[entryKey].css ?? []).reduce((s, f) => s + gzipOf(f), 0);
console.log(`initial JS (entry + static imports): ${kb(initialSize)} gzip in ${initial.size} files; CSS ${kb(css)} gzip`);
const rows = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry && c.file.endsWith('.js'))
  .map(([key]) => {
    const files = [...closure(key)].filter((f) => !initial.has(f));
    const extra = files.reduce((s, f) => s + gzipOf(f), 0);
    return { chunk: key, extra, total: initialSize + extra };
  })
  .sort((a, b) => a.chunk.localeCompare(b.chunk));
console.log('\nroute chunk'.padEnd(70) + 'extra'.padStart(10) + 'total'.padStart(10));
for (const r of rows) console.log(r.chunk.padEnd(69) + kb(r.extra).padStart(10) + kb(r.total).padStart(10));
