// Prints the README's configuration table from CONFIG_DOC: `npx tsx scripts/config-table.ts`.
import { CONFIG_DOC } from '../apps/api/src/config';

const cell = (s: string) => s.replaceAll('|', '\\|');
for (const v of CONFIG_DOC) console.log(`| \`${v.name}\` | ${cell(v.default)} | ${cell(v.description)} |`);
