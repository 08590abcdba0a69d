/**
 * docs/hosts-and-schemes.md says what happens to a request by how it arrives (TLS or not, trusted
 * X-Forwarded-Proto or not, origin- or absolute-form, which Host) under each plainHttpCredentials
 * policy. Its table is generated from scripts/docs/scheme-cases.ts; this test sends every one of
 * those cases to a real gateway (in front of the sandbox legacy backend) under every policy and
 * checks the documented outcome, and that the request is logged `insecure` exactly when it is
 * plain http with credentials.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { POLICIES, QUERY, SCHEME_CASES } from '../scripts/docs/scheme-cases.js';
import type { Policy, SchemeCase } from '../scripts/docs/scheme-cases.js';
import { startTestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { freePort } from './support/started-process.js';

let legacy: StartedLegacySandbox;
let dir: string;
let tls: { certFile: string; keyFile: string; ca: string };

beforeAll(async () => {
  legacy = await startLegacySandbox();
  dir = await mkdtemp(join(tmpdir(), 'schemes-'));
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    // The client checks the name of the Host header it sends (api.bigoven.com).
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'api.bigoven.com' }] }],
  });
  tls = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem'), ca: pems.cert };
  await writeFile(tls.certFile, pems.cert);
  await writeFile(tls.keyFile, pems.private);
});
afterAll(async () => {
  await legacy.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * The gateway of a case, its https listener on a port found free: another test file running in
 * parallel can take that port before the gateway listens on it (EADDRINUSE), so a taken port is
 * tried again with another.
 */
async function startCaseGateway(c: SchemeCase, policy: Policy) {
  for (let attempt = 1; ; attempt++) {
    const httpsPort = await freePort();
    try {
      const gateway = await startTestGateway(legacy.origin, {
        plainHttpCredentials: policy,
        listen: { host: '127.0.0.1', port: 0, ...(c.httpsListener ? { https: { port: httpsPort, certFile: tls.certFile, keyFile: tls.keyFile } } : {}) },
        ...(c.acceptedHosts ? { acceptedHosts: [...c.acceptedHosts] } : {}),
        ...(c.forwardedHttps === 'trusted' ? { trustedProxies: ['127.0.0.1'] } : {}),
      });
      return { gateway, httpsPort };
    } catch (error) {
      if (attempt >= 5 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}

async function sendCase(c: SchemeCase, policy: Policy) {
  const { gateway, httpsPort } = await startCaseGateway(c, policy);
  try {
    const query = c.credentials ? QUERY : 'title_kw=soup';
    const origin = c.tls ? (gateway.httpsOrigin ?? '') : gateway.origin;
    const res = await send(origin, {
      target: c.absolute ? `${c.absolute}/recipes?${query}` : `/recipes?${query}`,
      headers: {
        host: c.host === '{gateway}' ? new URL(gateway.origin).host : c.host,
        accept: 'application/json',
        ...(c.forwardedHttps ? { 'x-forwarded-proto': 'https' } : {}),
      },
      ca: tls.ca,
    });
    // The documented Location names port 8443 for "the https listener"; the test's listener has a free port.
    const location = typeof res.headers['location'] === 'string' ? res.headers['location'].replace(`:${httpsPort}/`, ':8443/') : undefined;
    return { res, location, record: gateway.records.at(-1) };
  } finally {
    await gateway.close();
  }
}

describe('hosts and schemes, as docs/hosts-and-schemes.md says', () => {
  for (const c of SCHEME_CASES) {
    it.each(POLICIES)(`${c.arrives}: plainHttpCredentials %s`, async (policy) => {
      const expected = c.expected[policy];
      const { res, location, record } = await sendCase(c, policy);
      const refusal = res.headers['x-gateway-error'];
      if (expected.kind === 'answered') {
        expect(res.status, res.text()).toBe(c.credentials ? 200 : 403);
        expect(refusal === 'insecure-credentials' || refusal === 'misdirected').toBe(false);
      } else if (expected.kind === 'refused') {
        expect(res.status).toBe(expected.status);
        expect(refusal).toBe(expected.status === 403 ? 'insecure-credentials' : 'misdirected');
      } else {
        expect(res.status).toBe(308);
        expect(location).toBe(expected.location);
        expect(res.headers['cache-control']).toBe('no-store');
      }
      const plainWithCredentials = c.credentials && !c.tls && c.forwardedHttps !== 'trusted';
      if (expected.kind !== 'refused' || expected.status !== 421) expect(record?.insecure === true).toBe(plainWithCredentials);
    });
  }
});
