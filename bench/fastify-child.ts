/** Child: @fastify/http-proxy in front of the legacy upstream with its defaults (undici, no logger), the peer to be ahead of. Reports { origin }. */
import fastifyHttpProxy from '@fastify/http-proxy';
import Fastify from 'fastify';
import { runChild } from './ipc.js';

runChild<{ upstream: string }>(async ({ upstream }) => {
  const app = Fastify({ logger: false });
  await app.register(fastifyHttpProxy, { upstream, prefix: '/', http2: false });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { info: { origin: address }, close: () => app.close() };
});
