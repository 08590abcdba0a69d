// A client that writes a whole request (head and body) at once, then is busy for a moment before
// it reads (as a client blocked in its write call is): run as a child process, so that its
// not-reading cannot stall the gateway under test. Prints {"status":N} (0: no answer read).
// usage: node busy-writer-client.mjs <port> <413|431> <bodyBytes>
import { connect } from 'node:net';

const [port, kind, bodyBytes] = process.argv.slice(2);
const body = Buffer.alloc(Number(bodyBytes), 97);
const extra = kind === '431' ? `X-Padding: ${'x'.repeat(40 * 1024)}\r\n` : '';
const head =
  `POST /recipe/1/review?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}` +
  `Content-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`;
const socket = connect(Number(port), '127.0.0.1');
const chunks = [];
let reported = false;
const report = () => {
  if (reported) return;
  reported = true;
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(Buffer.concat(chunks).toString('latin1'))?.[1] ?? 0);
  process.stdout.write(JSON.stringify({ status }));
  process.exit(0);
};
socket.on('data', (chunk) => chunks.push(chunk));
socket.on('error', report);
socket.on('close', report);
socket.on('connect', () => {
  socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
});
setTimeout(report, 20_000);
