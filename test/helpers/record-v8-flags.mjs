// Preloaded with `--import` (through NODE_OPTIONS) into a process under test: appends each flag string
// the process hands to V8 through `v8.setFlagsFromString` to the file named by AICAP_TEST_V8_FLAGS, one
// per line, as it is set (a serving process is stopped by a signal, without its exit handlers).
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';

const file = process.env['AICAP_TEST_V8_FLAGS'];
if (file) {
  const setFlagsFromString = v8.setFlagsFromString;
  v8.setFlagsFromString = (flags) => {
    appendFileSync(file, `${flags}\n`);
    setFlagsFromString(flags);
  };
  // `import('node:v8')` in the process then hands out the recording function too.
  syncBuiltinESMExports();
}
