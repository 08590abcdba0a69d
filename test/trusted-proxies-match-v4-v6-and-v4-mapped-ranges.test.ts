/**
 * Trusted proxies as ranges of every family: IPv4 and IPv6 CIDR ranges, single addresses, and
 * IPv4-mapped IPv6 (how a dual-stack listener shows an IPv4 peer) on either side. Then the same
 * through a real gateway listening on `::`, reached over ::1 and over 127.0.0.1 (a mapped peer).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { compileTrustedProxies, isAddressOrRange } from '../src/http/trusted-proxies.js';
import { startGateway } from '../src/node/server.js';
import type { RunningGateway } from '../src/node/server.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';

describe('the trusted-proxy matcher', () => {
  it('matches IPv4 ranges and addresses, and nothing outside them', () => {
    const trusted = compileTrustedProxies(['10.0.0.0/8', '192.168.1.7']);
    expect(trusted('10.200.3.4')).toBe(true);
    expect(trusted('192.168.1.7')).toBe(true);
    expect(trusted('11.0.0.1')).toBe(false);
    expect(trusted('192.168.1.8')).toBe(false);
  });

  it('matches IPv6 ranges as ranges, whatever the notation of the peer', () => {
    const trusted = compileTrustedProxies(['fd00::/8', '2001:db8::1']);
    expect(trusted('fd00::1')).toBe(true);
    expect(trusted('fdff:ffff:1:2:3:4:5:6')).toBe(true);
    expect(trusted('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(true);
    expect(trusted('fe00::1')).toBe(false);
    expect(trusted('2001:db8::2')).toBe(false);
  });

  it('matches an IPv4-mapped IPv6 peer against IPv4 ranges, and a mapped range against IPv4 peers', () => {
    expect(compileTrustedProxies(['10.0.0.0/8'])('::ffff:10.1.2.3')).toBe(true);
    expect(compileTrustedProxies(['10.0.0.0/8'])('::ffff:11.1.2.3')).toBe(false);
    expect(compileTrustedProxies(['::ffff:10.0.0.0/104'])('10.9.9.9')).toBe(true);
    expect(compileTrustedProxies(['::ffff:10.0.0.0/104'])('::ffff:10.9.9.9')).toBe(true);
    expect(compileTrustedProxies(['::ffff:10.0.0.0/104'])('11.9.9.9')).toBe(false);
  });

  it('never lets one family match the other by accident, and never trusts a non-address', () => {
    const trusted = compileTrustedProxies(['0.0.0.0/0']);
    expect(trusted('::1')).toBe(false);
    expect(trusted('unknown')).toBe(false);
    expect(compileTrustedProxies(['::/0'])('127.0.0.1')).toBe(false);
  });

  it('is refused at config load when an entry is not an address or a range', () => {
    expect(isAddressOrRange('fd00::/8')).toBe(true);
    expect(isAddressOrRange('10.0.0.0/33')).toBe(false);
    expect(isAddressOrRange('fd00::/129')).toBe(false);
    expect(isAddressOrRange('10.0.0')).toBe(false);
    const parsed = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } }, trustedProxies: ['fd00::/8', '::::/8'] });
    expect(parsed.ok).toBe(false);
  });
});

describe('a gateway on a dual-stack listener', () => {
  let upstream: RecordingUpstream;
  const gateways: RunningGateway[] = [];
  beforeAll(async () => {
    upstream = await startRecordingUpstream();
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await upstream.close();
  });

  async function start(trustedProxies: string[]): Promise<number> {
    const parsed = parseConfig({
      listen: { host: '::', port: 0 },
      upstreams: { legacy: { baseUrl: upstream.origin } },
      trustedProxies,
      observability: { log: { destination: '/dev/null' } },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const gateway = await startGateway(parsed.config);
    gateways.push(gateway);
    return Number(new URL(gateway.httpOrigin).port);
  }

  function forwardedProto(host: string, port: number): Promise<string | string[] | undefined> {
    return new Promise((resolve, reject) => {
      const req = request({ host, port, path: '/recipes?api_key=k', headers: { 'x-forwarded-proto': 'https' }, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(upstream.requests.at(-1)?.headers['x-forwarded-proto']));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('believes a peer inside a trusted IPv6 range (::1 in ::/64)', async () => {
    const port = await start(['::/64']);
    expect(await forwardedProto('::1', port)).toBe('https');
  });

  it('believes an IPv4 peer seen as ::ffff:127.0.0.1 inside a trusted IPv4 range', async () => {
    const port = await start(['127.0.0.0/8']);
    expect(await forwardedProto('127.0.0.1', port)).toBe('https');
  });

  it('does not believe a peer outside every range', async () => {
    const port = await start(['fd00::/8', '10.0.0.0/8']);
    expect(await forwardedProto('::1', port)).toBe('http');
    expect(await forwardedProto('127.0.0.1', port)).toBe('http');
  });
});
