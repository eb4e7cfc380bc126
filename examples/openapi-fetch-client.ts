// A typed client of the monitoring API with openapi-fetch and the types this package ships.
// Point it at the fake (`npx monitoring-api-kit serve`) or at a real server.
import createClient from 'openapi-fetch';
import type { EventLogRecord, paths } from 'monitoring-api-kit';

export interface Credentials {
  readonly login: string;
  readonly password: string;
}

/** A client whose paths, parameters and bodies are checked by TypeScript against the document. */
export function monitoringClient(origin: string, { login, password }: Credentials) {
  const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  return createClient<paths>({ baseUrl: origin, headers: { authorization } });
}

export type MonitoringClient = ReturnType<typeof monitoringClient>;

/** The newest SNMP traps, newest first. */
export async function latestTraps(client: MonitoringClient, count = 5): Promise<EventLogRecord[]> {
  const { data, error, response } = await client.GET('/node/api/event-log', {
    params: { query: { type: '1', sortDirection: 'desc', limit: String(count) } },
  });
  if (error) throw new Error(`GET /node/api/event-log: ${response.status} ${error.code}: ${error.message}`);
  return data;
}

/** Changes the text of a trap (needs the manage-event-log permission). */
export async function annotateTrap(client: MonitoringClient, id: string, text: string): Promise<void> {
  const { error, response } = await client.PATCH('/node/api/event-log/{id}/payload', {
    params: { path: { id } },
    body: { text },
  });
  if (error) throw new Error(`PATCH payload of ${id}: ${response.status} ${error.code}: ${error.message}`);
}

/** Who the credentials belong to. */
export async function whoAmI(client: MonitoringClient): Promise<string> {
  const { data, error } = await client.GET('/node/api/users/current');
  if (error) throw new Error(`${error.code}: ${error.message}`);
  return data.login;
}
