import { processIo } from './cli/io';
import { run } from './main';

// The executable's entry: the exit code is set, not forced, so that output still being written to
// a pipe is flushed first.
run(process.argv.slice(2), processIo()).then(
  code => {
    process.exitCode = code;
  },
  () => {
    process.stderr.write('error: kubectl krypton failed unexpectedly.\n');
    process.exitCode = 1;
  },
);
