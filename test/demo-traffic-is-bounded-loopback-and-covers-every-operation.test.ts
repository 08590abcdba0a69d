/**
 * The demo's traffic generator (src/demo/traffic.ts, population.ts): it sends to loopback only,
 * never more than its total and never faster than its rate, stops when told; its population is
 * dozens of clients in several programs (their User-Agents), anonymous and signed in, reading and
 * writing across every catalogued operation, the same sequence for the same seed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/catalogue/operations.js';
import { mulberry32 } from '../src/sandbox/dataset/dataset.js';
import { installations, nextRequest } from '../src/sandbox/demo/population.js';
import type { Memory } from '../src/sandbox/demo/population.js';
import { startTraffic } from '../src/sandbox/demo/traffic.js';

describe('the demo traffic', () => {
  it('refuses an address beyond loopback and a rate out of bounds', () => {
    expect(() => startTraffic({ origin: 'http://10.0.0.1:8080', rate: 10, total: 10 })).toThrow(/loopback/);
    expect(() => startTraffic({ origin: 'http://127.0.0.1:8080', rate: 1000, total: 10 })).toThrow(/rate/);
  });

  it('sends at most its total, at about its rate, with its clients\' User-Agents, and nothing once stopped', async () => {
    const seen: Array<{ agent: string; at: number }> = [];
    const server = createServer((req, res) => {
      seen.push({ agent: req.headers['user-agent'] ?? '', at: Date.now() });
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      const traffic = startTraffic({ origin, rate: 20, total: 15 });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(seen.length).toBeLessThanOrEqual(15);
      expect(seen.length).toBeGreaterThanOrEqual(10);
      expect(seen.filter((s) => s.at - started < 500).length).toBeLessThanOrEqual(11);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen).toHaveLength(15);
      await traffic.stop();
      expect(new Set(seen.map((s) => s.agent)).size).toBeGreaterThan(1);

      const endless = startTraffic({ origin, rate: 50, total: 1_000_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await endless.stop();
      const after = seen.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.length).toBe(after);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('plays dozens of clients over every operation, reads and writes, the same for the same seed', () => {
    const clients = installations();
    expect(new Set(clients.map((c) => c.apiKey)).size).toBeGreaterThanOrEqual(40);
    expect(new Set(clients.map((c) => c.user?.user).filter(Boolean)).size).toBeGreaterThanOrEqual(40);
    expect(new Set(clients.map((c) => c.program.userAgent)).size).toBeGreaterThanOrEqual(3);
    const draw = (): string[] => {
      const random = mulberry32(7);
      const memory: Memory = { reviews: new Map(), grocery: new Map() };
      return Array.from({ length: 3000 }, () => {
        const request = nextRequest(random, clients, memory);
        if (request.method === 'POST' && request.operation === 'reviews.create') memory.reviews.set(request.installation.user?.user ?? '', [{ id: 5, rid: 7 }]);
        if (request.method === 'POST' && request.operation === 'grocery.create') memory.grocery.set(request.installation.user?.user ?? '', ['308E515A-C877-48DF-882C-000000000001']);
        return `${request.operation} ${request.method} ${request.target}`;
      });
    };
    const sent = draw();
    expect(new Set(sent.map((line) => line.split(' ')[0]))).toEqual(new Set(OPERATIONS.map((op) => op.id)));
    expect(sent.filter((line) => !line.includes(' GET ')).length).toBeGreaterThan(300);
    expect(draw()).toEqual(sent);
  });
});
