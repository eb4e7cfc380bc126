import { createFake } from '../../src/index.js';
import { handlersFor } from '../../src/msw/index.js';
import { BASE, handlerSuite } from './handler-suite.js';

handlerSuite('handlersFor(fake, { baseUrl }): the fake in-process, no port', {
  async start() {
    const fake = await createFake({ records: 40, docs: false });
    return { fake, handlers: handlersFor(fake, { baseUrl: BASE }) };
  },
});
