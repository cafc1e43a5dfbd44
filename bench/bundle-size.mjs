// Gzip size of what a phone downloads before it can show a screen (issue 13 "Fast on a phone"):
// - the initial JS: the entry chunk with its static imports (and the CSS);
// - the first screens, login and home: the initial JS, the screen's lazy chunk with its static
//   imports and the texts of the default language (Faroese, a lazy chunk of its own), against
//   the goals of issue 13;
// - what those bytes are: the source packages and modules, from the build's sourcemaps;
// - every route chunk: its extra JS on top of the initial JS.
// Reads Vite's build manifest (apps/web/dist/.vite/manifest.json); builds the app if it is missing.
// Sizes are KiB (1024 bytes) of gzip level 9, file by file, as a phone downloads them.
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

/**
 * The screens of issue 30's goals (React 19's renderer and i18next included): the route's lazy
 * chunk (manifest key, or the name of the screen chunk that holds it: screen-chunks.ts) and the
 * gzip budget.
 */
const FIRST_SCREENS = [
  {
    name: 'login',
    path: '/rita-inn',
    chunk: 'src/features/auth/login-chooser-screen.tsx',
    // Issue 45 "Lighter first screens" (was 165).
    goal: 150,
  },
  // Issue 45 "Lighter first screens" (was 205).
  { name: 'home', path: '/', chunk: 'src/features/home/home-screen.tsx', group: 'home', goal: 175 },
];
/** The texts of the default language, Faroese (apps/web/src/shared/i18n/i18n.ts loads them). */
const DEFAULT_TEXTS = 'src/shared/i18n/resources-fo.ts';

const gz = new Map();
const gzipOf = (file) => {
  if (!gz.has(file))
    gz.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length);
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
/** The CSS files of chunks (by manifest key, with their static imports). */
const cssOf = (keys) => {
  const files = new Set();
  const visit = (key, seen = new Set()) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) visit(dep, seen);
  };
  for (const key of keys) visit(key);
  return files;
};
const sizeOf = (files) => [...files].reduce((s, f) => s + gzipOf(f), 0);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const initial = closure(entryKey);
const initialSize = sizeOf(initial);
const css = sizeOf(cssOf([entryKey]));
console.log(
  `initial JS (entry + static imports): ${kib(initialSize)} gzip in ${initial.size} files; CSS ${kib(css)} gzip`,
);

// ---- First screens against the goals of issue 13 ----
const textsLazy = Boolean(manifest[DEFAULT_TEXTS]?.isDynamicEntry);
console.log(
  `\nfirst screen: JS before it renders = initial JS + the route's chunks` +
    (textsLazy ? ' + the Faroese texts' : '') +
    ' (gzip)',
);
const screens = FIRST_SCREENS.map((screen) => {
  const key = manifest[screen.chunk]
    ? screen.chunk
    : Object.keys(manifest).find((k) => screen.group && manifest[k].name === screen.group);
  if (!key) throw new Error(`No chunk ${screen.chunk} in the build manifest`);
  const files = new Set([...initial, ...closure(key)]);
  if (textsLazy) for (const f of closure(DEFAULT_TEXTS)) files.add(f);
  const js = sizeOf(files);
  const screenCss = sizeOf(cssOf([entryKey, key]));
  const met = js <= screen.goal * 1024;
  console.log(
    `  ${screen.name.padEnd(6)} ${screen.path.padEnd(10)} JS ${kib(js).padStart(10)} in ${String(files.size).padStart(2)} files` +
      `  CSS ${kib(screenCss).padStart(8)}   goal JS ≤ ${screen.goal} KiB: ${met ? 'met' : 'NOT met'}`,
  );
  return { ...screen, files };
});

// ---- What the first screens carry, by source (sourcemaps) ----
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Decodes one sourcemap segment (base64 VLQ) into its numbers. */
function decodeSegment(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = B64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}
/** The generated code of a JS file, split by source: source path → code text. */
function codeBySource(file) {
  const code = readFileSync(path.join(dist, file), 'utf8');
  const mapFile = path.join(dist, `${file}.map`);
  const out = new Map();
  const add = (source, text) => out.set(source, (out.get(source) ?? '') + text);
  // Code without a source (JSON modules, the bundler's runtime), named after its chunk.
  const chunkName = path.basename(file).replace(/-[\w-]{8}\.js$/, '');
  const unmapped = `(no source map: ${chunkName} chunk)`;
  if (!existsSync(mapFile)) {
    add(unmapped, code);
    return out;
  }
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  const lines = code.split('\n');
  let source = 0;
  map.mappings.split(';').forEach((line, index) => {
    const text = lines[index] ?? '';
    let column = 0;
    const segments = line ? line.split(',').map(decodeSegment) : [];
    let start = 0;
    let current = unmapped;
    for (const segment of segments) {
      column += segment[0];
      if (column > start) add(current, text.slice(start, column));
      start = column;
      if (segment.length >= 4) {
        source += segment[1];
        current = map.sources[source] ?? unmapped;
      } else current = unmapped;
    }
    add(current, text.slice(start) + '\n');
  });
  return out;
}
/** A package (node_modules/<name>) or a source folder of the repo. */
const groupOf = (source) => {
  if (source.startsWith('(')) return source;
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [scope, name] = source.slice(modules + 'node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const clean = source.replace(/^(\.\.\/)+/, '');
  const parts = clean.split('/');
  return parts.length > 3 ? parts.slice(0, 3).join('/') : clean;
};
const texts = new Map();
const entryGroups = new Set();
for (const file of new Set(screens.flatMap((s) => [...s.files]))) {
  for (const [source, text] of codeBySource(file)) {
    const group = groupOf(source);
    texts.set(group, (texts.get(group) ?? '') + text);
    if (initial.has(file)) entryGroups.add(group);
  }
}
const groups = [...texts]
  .map(([group, text]) => ({ group, gzip: gzipSync(text, { level: 9 }).length }))
  .sort((a, b) => b.gzip - a.gzip);
console.log(
  '\nwhat the first screens carry, by source (gzip of each part alone; * = in the initial JS)',
);
for (const { group, gzip } of groups.slice(0, 25))
  console.log(`  ${kib(gzip).padStart(10)} ${entryGroups.has(group) ? '*' : ' '} ${group}`);

// ---- The renderer: which one ships, and its weight ----
const RENDERERS = [
  { name: 'react-dom', parts: ['react-dom', 'react', 'scheduler'] },
  { name: 'preact', parts: ['preact'] },
];
const versionOf = (pkg) => {
  const file = path.resolve('node_modules', pkg, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : '?';
};
const gzipOfGroup = new Map(groups.map(({ group, gzip }) => [group, gzip]));
for (const renderer of RENDERERS) {
  const parts = renderer.parts.filter((part) => gzipOfGroup.has(part));
  if (!parts.includes(renderer.name)) continue;
  const total = parts.reduce((sum, part) => sum + gzipOfGroup.get(part), 0);
  console.log(
    `\nrenderer: ${renderer.name} ${versionOf(renderer.name)} — ${kib(total)} gzip (` +
      parts.map((part) => `${part} ${kib(gzipOfGroup.get(part))}`).join(' + ') +
      `), ${parts.every((part) => entryGroups.has(part)) ? 'in' : 'NOT all in'} the initial JS`,
  );
}

// ---- Every route chunk ----
const rows = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry && c.file.endsWith('.js'))
  .map(([key]) => {
    const files = [...closure(key)].filter((f) => !initial.has(f));
    const extra = files.reduce((s, f) => s + gzipOf(f), 0);
    return { chunk: key, extra, total: initialSize + extra };
  })
  .sort((a, b) => a.chunk.localeCompare(b.chunk));
console.log('\nlazy chunk'.padEnd(70) + 'extra'.padStart(11) + 'total'.padStart(11));
for (const r of rows)
  console.log(r.chunk.padEnd(69) + kib(r.extra).padStart(11) + kib(r.total).padStart(11));
