import type { Faker } from '@faker-js/faker';
import type { MqttMessagePayload } from '../spec/types.js';
import type { Sensor } from './inventory.js';

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * A published message of a sensor: JSON readings on plain topics (QoS 0, not retained),
 * state topics (door, UPS) retained at QoS 1, alarms at QoS 1.
 */
export function sensorMessage(faker: Faker, sensor: Sensor): MqttMessagePayload {
  switch (sensor.kind) {
    case 'temperature': {
      const alarm = faker.number.int(49) === 0;
      const celsius = round1(alarm ? faker.number.float({ min: 35, max: 45 }) : faker.number.float({ min: 19, max: 29 }));
      const body = alarm ? { celsius, threshold: 35, alarm: true } : { celsius };
      return { topic: sensor.topic, message: JSON.stringify(body), qos: alarm ? 1 : 0, retain: false };
    }
    case 'humidity':
      return { topic: sensor.topic, message: JSON.stringify({ percent: round1(faker.number.float({ min: 35, max: 60 })) }), qos: 0, retain: false };
    case 'power': {
      const watts = faker.number.int({ min: 1200, max: 4200 });
      return { topic: sensor.topic, message: JSON.stringify({ watts, amps: round1(watts / 230) }), qos: 0, retain: false };
    }
    case 'door':
      return { topic: sensor.topic, message: JSON.stringify({ state: faker.helpers.arrayElement(['open', 'closed']) }), qos: 1, retain: true };
    case 'ups': {
      const onBattery = faker.number.int(19) === 0;
      const batteryPercent = onBattery ? faker.number.int({ min: 40, max: 99 }) : 100;
      const body = { onBattery, batteryPercent, runtimeMinutes: Math.round(batteryPercent * 0.6) };
      return { topic: sensor.topic, message: JSON.stringify(body), qos: 1, retain: true };
    }
  }
}
