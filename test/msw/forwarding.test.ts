import { createFake } from '../../src/index.js';
import { handlersFor } from '../../src/msw/index.js';
import { BASE, handlerSuite } from './handler-suite.js';

handlerSuite('handlersFor({ forwardTo, baseUrl }): a listening fake', {
  async start() {
    const fake = await createFake({ records: 40, docs: false });
    const { origin } = await fake.listen();
    return { fake, handlers: handlersFor({ forwardTo: origin, baseUrl: BASE }) };
  },
});
