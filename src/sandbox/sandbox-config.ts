/**
 * The config documents of the sandbox runs (docs/sandbox-and-demo.md), before validation:
 *
 * - `sandboxDocument(kind)`: `npm start` (every route on legacy), `--api2` (the mapped ones on api2),
 *   `--demo` (a rollout plan on each operation that can move: src/demo/demo-config.ts);
 * - `withSandbox(document, backends)`: any document pointed at the started sandbox backends, with
 *   the sandbox's own settings (`--sandbox --config FILE`, and the runs above); `sandboxSettings`
 *   lists them for the banner;
 * - `printableDocument(document)`: the same with the sandbox's addresses replaced by placeholders,
 *   the starting point of a real deployment (`--print-config`).
 */
import { capabilities } from '../catalogue/movability.js';
import { PLACEHOLDER_PHOTO_URL } from './dataset/dataset.js';
import { DEMO_EVALUATION_MS, demoRoutes } from './demo/demo-config.js';
import { FAULT_ENVIRONMENT } from './api2-fault-setting.js';

export type SandboxKind = 'legacy' | 'api2' | 'demo';

export interface SandboxBackends {
  readonly legacyOrigin: string;
  readonly api2Origin: string;
  readonly api2CaFile: string;
}

/** The environment variables a sandbox run reads, for --help. */
export const SANDBOX_ENVIRONMENT: ReadonlyArray<readonly [name: string, what: string]> = [
  ['SANDBOX_LEGACY_PORT', 'the sandbox legacy backend\'s port (default: a free one)'],
  ['SANDBOX_API2_PORT', 'the sandbox api2 backend\'s port (default: a free one)'],
  [FAULT_ENVIRONMENT, 'an api2 fault set at start, e.g. "kind=field fraction=0.05 field=Title"'],
];

type Doc = Record<string, unknown>;

const objectOr = (value: unknown): Doc => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Doc) : {});

/** A fixed, public hash key: client hashes stay the same across sandbox runs (never for a real deployment). */
export const SANDBOX_HASH_KEY = 'sandbox-hash-key-not-a-secret';

export function sandboxDocument(kind: SandboxKind): Doc {
  const mapped = capabilities().filter((row) => row.mapped).map((row) => row.operation);
  return {
    routes: kind === 'api2' ? Object.fromEntries(mapped.map((id) => [id, { mode: 'api2' }])) : kind === 'demo' ? demoRoutes() : {},
    ...(kind === 'demo' ? { rollout: { evaluationMs: DEMO_EVALUATION_MS } } : {}),
    legacyHosts: ['api.bigoven.com'],
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    // Metrics, the console and the sandbox's controls on a loopback admin listener (ADMIN_PORT, default a free port).
    observability: { admin: { listen: { host: '127.0.0.1', port: 0 } } },
  };
}

/** Each setting the sandbox applies over a document: key, value, why. */
export function sandboxSettings(backends: SandboxBackends, document: unknown): Array<readonly [key: string, value: string, why: string]> {
  const observability = objectOr(objectOr(document)['observability']);
  return [
    ['upstreams.legacy.baseUrl', backends.legacyOrigin, 'the sandbox legacy backend'],
    ['upstreams.api2.baseUrl', backends.api2Origin, 'the sandbox api2 backend'],
    ['upstreams.api2.caFile', backends.api2CaFile, "the sandbox api2's certificate, made at this start"],
    ['api2.noPhotoImageUrl', PLACEHOLDER_PHOTO_URL, 'the image the sandbox legacy shows for a recipe without a photo'],
    ...(objectOr(observability['admin'])['listen'] === undefined ? [['observability.admin.listen', '127.0.0.1 (ADMIN_PORT, else a free port)', 'the console and the sandbox controls'] as const] : []),
    ...(observability['hashKey'] === undefined ? [['observability.hashKey', SANDBOX_HASH_KEY, 'client hashes stay the same across sandbox runs'] as const] : []),
  ];
}

export function withSandbox(document: unknown, backends: SandboxBackends): Doc {
  const doc = objectOr(document);
  const upstreams = objectOr(doc['upstreams']);
  const observability = objectOr(doc['observability']);
  const admin = objectOr(observability['admin']);
  return {
    ...doc,
    upstreams: {
      ...upstreams,
      legacy: { ...objectOr(upstreams['legacy']), baseUrl: backends.legacyOrigin },
      api2: { ...objectOr(upstreams['api2']), baseUrl: backends.api2Origin, caFile: backends.api2CaFile },
    },
    api2: { ...objectOr(doc['api2']), noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    observability: {
      ...observability,
      hashKey: observability['hashKey'] ?? SANDBOX_HASH_KEY,
      admin: { ...admin, listen: admin['listen'] ?? { host: '127.0.0.1', port: 0 } },
    },
  };
}

/** Where a real deployment's backends go: replace these. */
export const PLACEHOLDER_UPSTREAMS = {
  legacy: { baseUrl: 'http://legacy.example.internal' },
  api2: { baseUrl: 'https://api2.example.internal' },
} as const;

export function printableDocument(document: Doc): Doc {
  return { listen: { host: '0.0.0.0', port: 8080 }, upstreams: PLACEHOLDER_UPSTREAMS, ...document };
}
