/**
 * A raw HTTP client for tests: sends the request target exactly as given (absolute-form, `..`
 * segments, odd encodings), with no connection reuse, and returns the bytes as received.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  text(): string;
  json(): unknown;
}

export interface RawRequest {
  readonly method?: string;
  readonly target: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** For https origins: the CA to trust. */
  readonly ca?: string;
  readonly timeoutMs?: number;
}

export function send(origin: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const make = secure ? httpsRequest : httpRequest;
    const outgoing = make(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? 'GET',
        path: req.target,
        headers,
        agent: false,
        ...(secure && req.ca ? { ca: req.ca } : {}),
        timeout: req.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: bytes,
            text: () => bytes.toString('utf8'),
            json: () => JSON.parse(bytes.toString('utf8')) as unknown,
          });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('test client timeout')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
