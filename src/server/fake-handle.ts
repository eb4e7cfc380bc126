import type { FastifyInstance } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { RecordingManifest } from '../shared/recording-layout.js';
import type { Spec } from '../spec/index.js';
import type { FixtureUser } from '../spec/types.js';
import type { FaultStore } from '../store/state.js';
import type { RequestJournal } from '../store/request-journal.js';
import type { FakeState } from '../store/state.js';
import type { ControlContext } from './control/index.js';
import type { IngestCountsBoard } from './ingest-counts.js';
import type { ResolvedFakeOptions } from './options.js';
import type { RouteReport } from './routes.js';
import type { RuntimeConfig } from './runtime-config.js';

/** What `app.fake` exposes: the state (for resets), and what the start found. */
export interface FakeHandle {
  readonly state: FakeState;
  readonly spec: Spec;
  readonly options: ResolvedFakeOptions;
  /** The users of the users fixture, with their passwords (the fake's development credentials). */
  readonly seededUsers: readonly FixtureUser[];
  /** Reads the users and event fixture files again and puts them in place (see FakeState.reloadFixtures); throws, changing nothing, when they have problems. */
  readonly reloadFixtures: () => Promise<void>;
  readonly errors: ErrorFactory;
  /** The configuration that the control API changes at run time. */
  readonly config: RuntimeConfig;
  readonly faults: FaultStore;
  /** The last requests the monitoring API answered (`/__control/requests`). */
  readonly journal: RequestJournal;
  /** Where the SNMP listener and the MQTT broker, started beside the app, are read for `/__control/ingest`. */
  readonly ingest: Pick<IngestCountsBoard, 'attach'>;
  /** operationIds that have a route. */
  readonly registered: readonly string[];
  /** operationIds of the document without a handler, and so without a route. */
  readonly missingHandlers: readonly string[];
  /** The control API's routes (`/__control`). */
  readonly control: RouteReport & { readonly spec: Spec; readonly context: ControlContext };
  /** The manifest of the recording served (`recording` option), if any. */
  readonly recording?: RecordingManifest;
}

declare module 'fastify' {
  interface FastifyInstance {
    fake: FakeHandle;
  }
}

export type FakeApp = FastifyInstance;

/** A built fake, and the one way to widen the Host names it answers, held apart from the app so that no user of the app widens them. */
export interface FakeWithListenHosts {
  readonly app: FakeApp;
  /** Answers the host the app was told to listen on (unless 0.0.0.0 or ::) as a `controlHosts` name: createFake's `listen` calls it. */
  readonly answerListenHost: (host: string) => void;
}
