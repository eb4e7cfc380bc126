import { createProgram } from './program.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  console.error(`monitoring-api-kit: ${(error as Error).message}`);
  process.exitCode = 1;
}
