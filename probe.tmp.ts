import { connect } from 'node:net';
import { buildFake } from './src/server/build.js';
const lines: string[] = [];
const app = await buildFake({ records: 10, logger: { level: 'trace', stream: { write: (l) => void lines.push(l) } } });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const auth = 'Authorization: Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=\r\nCookie: sid=secret-sid-1\r\n';
function raw(data: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out + '[error]'));
    s.write(data);
    setTimeout(() => s.end(), 500);
  });
}
const cases: Record<string, string> = {
  expect: `GET /node/api/users/current HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n`,
  connect: `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`,
  upgrade: `GET /node/api/users/current HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
  absolute: `GET http://evil.example/__control/config HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
  star: `OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n`,
  continue100: `POST /node/api/users/session HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
};
for (const [name, data] of Object.entries(cases)) {
  const out = await raw(data);
  console.log('==', name, JSON.stringify(out.slice(0, 300)));
}
await app.close();
const log = lines.join('');
console.log('LOG has rawPacket:', log.includes('rawPacket'), 'has sid:', log.includes('secret-sid-1'), 'has basic:', log.includes('YWRtaW46'));
for (const l of lines) if (l.includes('client')) console.log(l.slice(0, 300));
