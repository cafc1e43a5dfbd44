// `npm run config:table -w @alda/api`: prints the configuration tables (markdown, one per area)
// from SETTINGS; with `-- --write` it puts them into docs/configuration.md between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configTable } from './config';

const tables = configTable();
if (process.argv.includes('--write')) {
  const file = fileURLToPath(new URL('../../../docs/configuration.md', import.meta.url));
  const doc = readFileSync(file, 'utf8');
  const block = /(<!-- config-table:start[^>]*-->\n)[\s\S]*?(\n<!-- config-table:end -->)/;
  if (!block.test(doc)) throw new Error(`${file} has no config-table markers`);
  writeFileSync(
    file,
    doc.replace(block, (_, start: string, end: string) => start + tables + end),
  );
  process.stdout.write(`${file} updated\n`);
} else {
  process.stdout.write(`${tables}\n`);
}
