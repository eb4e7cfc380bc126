import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { packageRoot } from '../spec/index.js';
import { registerCheckCommand } from './check-command.js';
import { registerRecordCommand } from './record-command.js';
import { registerServeCommand } from './serve.js';

const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };

/** The command line of the kit; each command registers itself. */
export function createProgram(): Command {
  const program = new Command('monitoring-api-kit')
    .description('Mock server and contract test kit for the monitoring service REST API')
    .version(version);
  registerServeCommand(program);
  registerCheckCommand(program);
  registerRecordCommand(program);
  return program;
}
