/**
 * The report's per-client section: the legacy operations and forms each client still uses, as
 * the list of what blocks its migration, ordered by remaining legacy use.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { reportFromInputs } from '../src/report/run.js';
import type { Report } from '../src/report/types.js';
import { CLIENT_A, CLIENT_B, CLIENT_C, scenarioLines, writeLog } from './support/log-fixtures.js';

let report: Report;
beforeAll(async () => {
  report = await reportFromInputs([await writeLog(scenarioLines())]);
});

describe('report: per client', () => {
  it('orders clients by remaining legacy use, with their labels', () => {
    expect(report.clients.map((c) => [c.client, c.label, c.requests, c.legacyRequests])).toEqual([
      [CLIENT_A, 'ios-app', 470, 200],
      [CLIENT_B, undefined, 90, 90],
      [CLIENT_C, undefined, 10, 10],
    ]);
    expect(report.summary.clients).toBe(3);
    expect(report.summary.anonymousRequests).toBe(5);
  });

  it('lists what blocks each client, one entry per kind (legacy mode, malformed forms, version prefixes, plain http, uncatalogued calls) naming its operations', () => {
    const blockers = Object.fromEntries(report.clients.map((c) => [c.client, c.blockers.map((b) => [b.kind, b.operations, b.requests])]));
    expect(blockers).toEqual({
      [CLIENT_A]: [
        ['legacy-mode', ['recipes.search', 'grocery.list'], 200],
        ['version-prefix', ['recipes.search'], 20],
      ],
      [CLIENT_B]: [
        ['legacy-mode', ['recipes.search', 'grocery.update'], 90],
        ['plain-http', ['recipes.search'], 50],
        ['malformed-form', ['grocery.update'], 30],
      ],
      [CLIENT_C]: [['uncatalogued', ['GET /recipe/{n}'], 10]],
    });
    const b = report.clients[1];
    expect(b?.blockers.find((x) => x.kind === 'malformed-form')?.detail).toBe('malformed path forms (POST /grocerylist/{id})');
    expect(report.clients[0]?.blockers.find((x) => x.kind === 'version-prefix')?.detail).toBe('version path prefix (/v1/)');
  });

  it('keeps the forms each client uses, with first and last seen', () => {
    const b = report.clients.find((c) => c.client === CLIENT_B);
    expect(b?.uses.filter((u) => u.operation === 'grocery.update').map((u) => [u.method, u.form, u.requests])).toEqual([
      ['POST', 'malformed', 30],
      ['PUT', 'regular', 10],
    ]);
    expect(b?.firstSeen).toBe('2026-01-05T10:02:30.000Z');
    expect(b?.lastSeen).toBe('2026-01-05T10:05:39.000Z');
  });
});
