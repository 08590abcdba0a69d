/**
 * The files a config names, read and parsed as the start will use them, each problem naming its
 * key and file: `listen.https.certFile: /etc/tls/tls.crt is not a PEM certificate (...)`. Run by
 * `--check-config` and before anything starts listening, on a valid config or, when the config has
 * other errors, on what the document names (so every error comes in one round).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { MIN_TOKEN } from '../observability/node/admin-access.js';

/** What is read of a config (a validated one, or a document that is not valid yet). */
export interface FileNamingDocument {
  readonly listen?: { readonly https?: { readonly certFile?: unknown; readonly keyFile?: unknown } | undefined } | undefined;
  readonly upstreams?: { readonly legacy?: { readonly caFile?: unknown } | undefined; readonly api2?: { readonly caFile?: unknown } | undefined } | undefined;
  readonly observability?: { readonly admin?: { readonly bearerTokenFile?: unknown } | undefined } | undefined;
}

type Kind = 'certificate' | 'key' | 'ca' | 'token';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The named files, by key (only string paths: a path of another type is the schema's error). */
export function namedFiles(document: unknown): Array<{ key: string; path: string; kind: Kind }> {
  const doc = asObject(document) ?? {};
  const https = asObject(asObject(doc['listen'])?.['https']);
  const upstreams = asObject(doc['upstreams']);
  const admin = asObject(asObject(doc['observability'])?.['admin']);
  const entries: Array<[string, unknown, Kind]> = [
    ['listen.https.certFile', https?.['certFile'], 'certificate'],
    ['listen.https.keyFile', https?.['keyFile'], 'key'],
    ['upstreams.legacy.caFile', asObject(upstreams?.['legacy'])?.['caFile'], 'ca'],
    ['upstreams.api2.caFile', asObject(upstreams?.['api2'])?.['caFile'], 'ca'],
    ['observability.admin.bearerTokenFile', admin?.['bearerTokenFile'], 'token'],
  ];
  return entries.filter((entry): entry is [string, string, Kind] => typeof entry[1] === 'string' && entry[1] !== '').map(([key, path, kind]) => ({ key, path, kind }));
}

/** The first line of an OpenSSL or Node message. */
const reason = (error: unknown): string => String((error as Error).message ?? error).split('\n')[0] ?? 'error';

function certificatesProblem(text: string): string | undefined {
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) return 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)';
  for (const [index, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch (error) {
      return `certificate ${index + 1} of ${blocks.length} cannot be parsed (${reason(error)})`;
    }
  }
  return undefined;
}

function contentProblem(kind: Kind, text: string): string | undefined {
  if (kind === 'certificate' || kind === 'ca') return certificatesProblem(text);
  if (kind === 'key') {
    try {
      createPrivateKey(text);
      return undefined;
    } catch (error) {
      return `is not a PEM private key (${reason(error)})`;
    }
  }
  return text.trim().length < MIN_TOKEN ? `must hold a token of at least ${MIN_TOKEN} characters` : undefined;
}

/** Every problem of every named file, at once; and whether the certificate and key are a pair. */
export async function fileProblems(document: unknown): Promise<string[]> {
  const errors: string[] = [];
  const read = new Map<string, string>();
  for (const { key, path, kind } of namedFiles(document)) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      errors.push(`${key}: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? reason(error)})`);
      continue;
    }
    const problem = contentProblem(kind, text);
    if (problem) errors.push(`${key}: ${path} ${problem}`);
    else read.set(key, text);
  }
  const cert = read.get('listen.https.certFile');
  const key = read.get('listen.https.keyFile');
  if (cert !== undefined && key !== undefined) {
    try {
      createSecureContext({ cert, key });
    } catch (error) {
      const https = namedFiles(document).filter((file) => file.kind === 'certificate' || file.kind === 'key');
      errors.push(`listen.https.certFile and listen.https.keyFile: ${https.map((file) => file.path).join(' and ')} are not a certificate and its key (${reason(error)})`);
    }
  }
  return errors;
}
