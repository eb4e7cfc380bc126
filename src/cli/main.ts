import { createProgram } from './program.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  // One line a person can act on; no stack trace for a bad flag, file or port.
  // A list of problems (`N problems:` then one a line) reads as `N problems: a; b; c`.
  const message = String((error as Error)?.message ?? error).replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ');
  console.error(`monitoring-api-kit: ${message}`);
  process.exitCode = 1;
}
