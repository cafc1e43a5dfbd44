'use strict';
/*
 * Preloaded (`node --require`) into the Prism processes that test/support/prism-router.ts starts:
 * their stdin is a pipe from the test process, and it ends when that process is gone, however it
 * ended (SIGKILL of a vitest worker or of the whole run included, when no exit handler runs).
 * Then this process exits too, so a crashed test run leaves no Prism behind.
 */
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
