/**
 * The `observability` config: defaults, and errors that name the key and the rule.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';

const base = { upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9000' } } };

describe('observability config', () => {
  it('defaults: log on to stdout at info, metrics at /metrics but served nowhere until protected, traces not exported', () => {
    const result = parseConfig(base);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { tracing, ...rest } = result.config.observability;
    expect(rest).toEqual({
      log: { enabled: true, level: 'info', destination: 'stdout' },
      clientLabels: {},
      metrics: { enabled: true, path: '/metrics' },
      admin: { openMetrics: false },
    });
    expect(tracing.enabled).toBe(false);
  });

  it('accepts a full configuration', () => {
    const result = parseConfig({
      ...base,
      observability: {
        log: { enabled: true, level: 'warn', destination: '/var/log/gateway/usage.log' },
        hashKey: 'a-long-random-hash-key',
        clientLabels: { '0123456789abcdef': 'ios-app' },
        metrics: { path: '/internal/metrics' },
        admin: { bearerToken: 'a-long-random-bearer-token', listen: { port: 9464 } },
      },
    });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config.observability.admin.listen).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  it('names the key and the rule of every error', () => {
    const result = parseConfig({
      ...base,
      observability: {
        log: { level: 'verbose', destination: '' },
        hashKey: 'short',
        clientLabels: { 'not-a-hash': 'x', '0123456789abcdef': '' },
        metrics: { path: '/recipes' },
        admin: { bearerToken: 'tiny', listen: { port: 70000 } },
        surprise: 1,
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const text = result.errors.join('\n');
    expect(text).toMatch(/observability\.log\.level: .*"info"/);
    expect(text).toMatch(/observability\.log\.destination: /);
    expect(text).toContain('observability.hashKey: must be at least 16 characters (a random secret)');
    expect(text).toContain('observability.clientLabels["not-a-hash"]: must be a client hash: 16 lower-case hex digits, as logged');
    expect(text).toMatch(/observability\.clientLabels\["0123456789abcdef"\]: /);
    expect(text).toContain('observability.metrics.path: must not be the path of a legacy operation');
    expect(text).toContain('observability.admin.bearerToken: must be at least 16 characters (a random token)');
    expect(text).toMatch(/observability\.admin\.listen\.port: .*65535/);
    expect(text).toMatch(/observability: Unrecognized key: "surprise"/);
  });
});
