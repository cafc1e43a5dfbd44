// Child process of bench/api-load.ts: starts the bench servers (reference data only) and prints
// their ports as one JSON line.
import { startBenchServers } from './bench-servers';

const { ports } = await startBenchServers({ demo: false });
process.stdout.write(`${JSON.stringify(ports)}\n`);
