/**
 * Before switching `plainHttpCredentials` to `redirect`: the usage line says what made the answer
 * JSON (`jsonBy`: accept, or content-type alone), and the report names the clients whose GETs send
 * credentials over plain http and ask for JSON by Content-Type alone (a header their HTTP library
 * may drop following the 308: they would get XML). Through a real gateway and its usage log.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderText } from '../src/report/render-text.js';
import { reportFromInputs } from '../src/report/run.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { send } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

describe('clients a redirect policy would break', () => {
  it('are the ones asking JSON by Content-Type alone on a GET with credentials over plain http', async () => {
    const legacy = await startLegacySandbox();
    const dir = await mkdtemp(join(tmpdir(), 'redirect-breaks-'));
    cleanup.push(() => legacy.close(), () => rm(dir, { recursive: true, force: true }));
    const log = join(dir, 'usage.log');
    const gateway = await startTestGateway(legacy.origin, {
      observability: { hashKey: 'redirect-breaks-test-hash-key', log: { destination: log }, clientLabels: {} },
    });
    const get = (key: string, headers: Record<string, string>) => send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${key}`, headers: { host: 'api.bigoven.com', ...headers } });
    for (let i = 0; i < 3; i++) expect((await get('sandbox-free-key', { 'content-type': 'application/json' })).headers['content-type']).toMatch(/json/);
    expect(gateway.records.at(-1)).toMatchObject({ insecure: true, jsonBy: 'content-type' });
    await get('sandbox-paid-key', { accept: 'application/json' });
    expect(gateway.records.at(-1)?.jsonBy).toBe('accept');
    await get('sandbox-paid-key', {});
    expect(gateway.records.at(-1)?.jsonBy).toBeUndefined();
    const breaking = gateway.records[0]!.client!;
    await gateway.close();

    const report = await reportFromInputs([log]);
    expect(report.policy.redirect).toEqual([{ client: breaking, label: undefined, requests: 3 }]);
    expect(report.clients.find((c) => c.client !== breaking)?.redirectBreaks).toBe(0);
    expect(renderText(report)).toMatch(new RegExp(`REDIRECT WOULD BREAK 1 CLIENT [^\\n]*\\n${breaking}: 3 requests\\n`));
  });
});
