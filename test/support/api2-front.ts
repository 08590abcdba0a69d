/**
 * A switchable api2 for rollout tests: a TLS front (its own CA file) before a real api2 sandbox.
 * `pass` forwards as it is; `differ` forwards and changes every recipe `Title` (a mapping that
 * starts to disagree); `status-5xx` answers 503 as the fault upstream does (src/sandbox/faults.ts);
 * `slow` forwards after `slowMs`. GET only (the front reads no request body).
 */
import { request } from 'node:https';
import { startApi2Sandbox } from '../../src/sandbox/api2-start.js';
import { startTlsUpstream } from './tls-upstream.js';

export type FrontMode = 'pass' | 'differ' | 'status-5xx' | 'slow';

export interface Api2Front {
  readonly origin: string;
  readonly caFile: string;
  mode: FrontMode;
  slowMs: number;
  close(): Promise<void>;
}

function changeTitles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(changeTitles);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'Title' && typeof inner === 'string' ? `${inner} (changed)` : changeTitles(inner)]));
  }
  return value;
}

export async function startApi2Front(): Promise<Api2Front> {
  const api2 = await startApi2Sandbox();
  const target = new URL(api2.origin);
  const front: Api2Front = {
    origin: '',
    caFile: '',
    mode: 'pass',
    slowMs: 1_000,
    close: async () => undefined,
  };
  const tls = await startTlsUpstream((req, res) => {
    const mode = front.mode;
    if (mode === 'status-5xx') {
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"Message":"upstream fault: 503"}');
      return;
    }
    const forward = (): void => {
      const headers = { ...req.headers, host: target.host };
      const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers, ca: api2.caPem }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const outHeaders = { ...answer.headers };
          if (mode === 'differ' && /json/.test(String(answer.headers['content-type'])) && body.length > 0) {
            body = Buffer.from(JSON.stringify(changeTitles(JSON.parse(body.toString('utf8')))));
            delete outHeaders['content-length'];
            delete outHeaders['content-encoding'];
            delete outHeaders['transfer-encoding'];
          }
          res.writeHead(answer.statusCode ?? 502, { ...outHeaders, 'content-length': String(body.length) });
          res.end(body);
        });
      });
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      upstream.end();
    };
    if (mode === 'slow') setTimeout(forward, front.slowMs);
    else forward();
  });
  return Object.assign(front, {
    origin: tls.origin,
    caFile: tls.caFile,
    close: async () => {
      await tls.close();
      await api2.close();
    },
  });
}
