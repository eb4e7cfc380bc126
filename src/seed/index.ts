export {
  DEFAULT_END_TIME, DEFAULT_EVENT_COUNT, DEFAULT_SEED, DEFAULT_SPAN_MS, SNMP_SHARE, generateEvents, type GenerateEventsOptions,
} from './generate-events.js';
export { DEFAULT_BLOCK_COUNT, generateBlocks, type GenerateBlocksOptions } from './generate-blocks.js';
export { FixtureError, defaultEventFixturesPath, fixtureOrigin, loadEventFixtures } from './event-fixtures.js';
export { seedEvents, type SeedEventsOptions } from './seed-records.js';
export { inventory, deviceNamed, type Device, type Interface, type Sensor, type SensorKind, type Vendor } from './inventory.js';
export { TRAP_OIDS } from './snmp-traps.js';
