// `npm run config:table -w @alda/api`: prints the configuration table (markdown) from SETTINGS.
import { configTable } from './config';

process.stdout.write(`${configTable()}\n`);
