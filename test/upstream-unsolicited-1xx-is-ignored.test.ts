/**
 * An upstream's unsolicited interim answers (`100 Continue` nobody asked for, `103 Early Hints`)
 * before the real answer: RFC 9110 §15.2 says a client must accept them and read on. The gateway
 * answers the client with the final answer (it used to answer `502 upstream-reset` after a 100),
 * on every request of a kept-alive upstream connection, however the 1xx bytes are split, and a
 * write behind it is sent once.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peekAnswerStart } from '../src/upstream/interim-continue-filter.js';
import { send } from './support/http.js';
import { startRigGateway } from './reliability-support.js';
import type { RigGateway } from './reliability-support.js';

interface Seen {
  readonly method: string;
  readonly target: string;
  readonly connection: number;
}

/** Writes each part of an answer with a short pause between (so the gateway reads them apart). */
type Script = (target: string) => string[];

let server: Server;
let gateway: RigGateway;
const seen: Seen[] = [];
let script: Script = () => [];

function final(status: string, body: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A raw HTTP/1.1 upstream, keep-alive, that answers each request with the current script. */
function serve(socket: Socket, connection: number): void {
  let buffered = Buffer.alloc(0);
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffered.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.byteLength < end + 4 + length) return;
      buffered = buffered.subarray(end + 4 + length);
      const [method = '', target = ''] = head.split(' ');
      seen.push({ method, target, connection });
      void writeParts(socket, script(target));
    }
  });
}

async function writeParts(socket: Socket, parts: string[]): Promise<void> {
  for (const part of parts) {
    socket.write(part);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

beforeAll(async () => {
  let connections = 0;
  server = createServer((socket) => serve(socket, ++connections));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway = await startRigGateway({ upstreams: { legacy: { baseUrl: origin, connections: 1 } } });
});
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => server.close(resolve));
});

const json = { accept: 'application/json' };

describe('an unsolicited interim answer from the upstream', () => {
  it('a 100 Continue before the answer: the client gets the answer, not a 502', async () => {
    script = (target) => ['HTTP/1.1 100 Continue\r\n\r\n', final('200 OK', JSON.stringify({ target }))];
    const res = await send(gateway.origin, { target: '/review/1?api_key=k', headers: json });
    expect(res.status, res.text()).toBe(200);
    expect(res.json()).toEqual({ target: '/review/1?api_key=k' });
  });

  it('a 100 Continue and the answer in one packet, and a 100 split in the middle of its status line', async () => {
    script = (target) => [`HTTP/1.1 100 Continue\r\n\r\n${final('200 OK', JSON.stringify({ target }))}`];
    expect((await send(gateway.origin, { target: '/review/2?api_key=k', headers: json })).json()).toEqual({ target: '/review/2?api_key=k' });
    script = (target) => ['HTTP/1.1 1', '00 Contin', 'ue\r\nX-Interim: yes\r\n', '\r\n', final('200 OK', JSON.stringify({ target }))];
    expect((await send(gateway.origin, { target: '/review/3?api_key=k', headers: json })).json()).toEqual({ target: '/review/3?api_key=k' });
  });

  it('two 100s in a row, then a 103 Early Hints, then the answer, whose headers are the final ones', async () => {
    script = (target) => [
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n',
      'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n',
      final('200 OK', JSON.stringify({ target })).replace('\r\n\r\n', '\r\nX-Final: yes\r\n\r\n'),
    ];
    const res = await send(gateway.origin, { target: '/review/4?api_key=k', headers: json });
    expect(res.status).toBe(200);
    expect(res.headers['x-final']).toBe('yes');
    expect(res.headers['link']).toBeUndefined();
    expect(res.json()).toEqual({ target: '/review/4?api_key=k' });
  });

  it('every request on one kept-alive upstream connection may get its own 100', async () => {
    script = (target) => ['HTTP/1.1 100 Continue\r\n\r\n', final('200 OK', JSON.stringify({ target }))];
    const before = seen.length;
    for (const n of [5, 6, 7]) {
      const res = await send(gateway.origin, { target: `/review/${n}?api_key=k`, headers: json });
      expect(res.json()).toEqual({ target: `/review/${n}?api_key=k` });
    }
    const connections = new Set(seen.slice(before).map((s) => s.connection));
    expect(connections.size, 'the upstream connection was kept, not broken by the 100').toBe(1);
  });

  it('a write answered 100 then 201 is answered 201 and sent to the upstream once', async () => {
    script = () => ['HTTP/1.1 100 Continue\r\n\r\n', final('201 Created', '{"ReviewID":9}')];
    const before = seen.length;
    const res = await send(gateway.origin, {
      method: 'POST',
      target: '/recipe/1/review?api_key=k',
      headers: { ...json, 'content-type': 'application/json' },
      body: '{"StarRating":5}',
    });
    expect(res.status).toBe(201);
    expect(seen.slice(before).filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('a final answer whose body happens to hold a 100 status line is passed on unchanged', async () => {
    const body = 'HTTP/1.1 100 Continue\r\n\r\n';
    script = () => [final('200 OK', JSON.stringify({ body }))];
    expect((await send(gateway.origin, { target: '/review/8?api_key=k', headers: json })).json()).toEqual({ body });
  });
});

describe('where an answer starts (the filter undici reads through)', () => {
  it('tells a 100 block, a final status line and a status line still arriving apart', () => {
    expect(peekAnswerStart(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n'))).toEqual({ kind: 'interim', length: 25 });
    expect(peekAnswerStart(Buffer.from('HTTP/1.1 200 OK\r\n'))).toEqual({ kind: 'final' });
    expect(peekAnswerStart(Buffer.from('HTTP/1.1 1'))).toEqual({ kind: 'more' });
    expect(peekAnswerStart(Buffer.from('HTTP/1.1 2'))).toEqual({ kind: 'final' });
    expect(peekAnswerStart(Buffer.from('HTTP/1.1 100 Continue\r\nX: y\r\n'))).toEqual({ kind: 'more' });
    expect(peekAnswerStart(Buffer.from('HTTP/1.1 1000 Nope\r\n'))).toEqual({ kind: 'final' });
  });
});
