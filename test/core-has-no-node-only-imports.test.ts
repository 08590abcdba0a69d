/**
 * The build rule that keeps the core runnable on edge runtimes: the edge entry (src/edge/worker.ts,
 * which imports the whole core: src/app.ts and everything it reaches) is bundled with esbuild as
 * Wrangler bundles a Worker (`platform: 'browser'`: no Node builtins, packages' browser builds;
 * test/support/edge-bundle.ts), and the bundle may contain
 *
 * - no import of a Node builtin (`node:*`, or a bare builtin name such as `fs`),
 * - no Node-only package (undici, pino and its transports, @hono/node-server, prom-client, …),
 * - no unresolved module,
 * - and the project's own bundled sources use no Node global (`process`, `Buffer`, `require`,
 *   `__dirname`, `setImmediate`).
 *
 * A failure names the import chain from the entry to the offending module. The same check is run
 * on fixtures that break each rule, so the rule is shown to catch what it claims to.
 */
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { build, transform } from 'esbuild';
import type { Metafile, Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { EDGE_BUNDLE_OPTIONS } from './support/edge-bundle.js';

const ROOT = new URL('..', import.meta.url).pathname;

/** Packages that exist only for Node (or pull Node builtins in through their dependencies). */
const NODE_ONLY_PACKAGES = ['undici', 'pino', 'pino-pretty', 'pino-abstract-transport', 'thread-stream', 'sonic-boom', '@hono/node-server', 'prom-client', 'selfsigned'];
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const NODE_GLOBALS = /\b(?:process\s*\.|Buffer\s*\.|Buffer\s*\(|require\s*\(|__dirname|__filename|setImmediate\s*\()/;

function isForbidden(path: string): boolean {
  if (path.startsWith('node:') || BUILTINS.has(path) || BUILTINS.has(path.split('/')[0] ?? '')) return true;
  return NODE_ONLY_PACKAGES.some((name) => path === name || path.startsWith(`${name}/`) || path.includes(`node_modules/${name}/`));
}

/** Marks forbidden modules external (so the build goes on and the metafile shows who imports them). */
const markForbidden: Plugin = {
  name: 'mark-node-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => (isForbidden(args.path) ? { path: args.path, external: true } : undefined));
  },
};

interface CoreCheck {
  /** One chain per forbidden module: entry → … → module. */
  readonly chains: string[];
  /** Build errors (unresolved modules). */
  readonly errors: string[];
  /** Own sources (src/, mappings/, a fixture) that use a Node global. */
  readonly globals: string[];
  readonly inputs: string[];
}

const STDIN_INPUT = 'src/<stdin>';

type Entry = { readonly file: string } | { readonly stdin: string };

async function checkCore(entry: Entry): Promise<CoreCheck> {
  const result = await build({
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.stdin, resolveDir: `${ROOT}src`, loader: 'ts', sourcefile: '<stdin>' } }),
    ...EDGE_BUNDLE_OPTIONS,
    absWorkingDir: ROOT,
    metafile: true,
    plugins: [markForbidden],
  }).catch((error: { errors?: Array<{ text: string; location?: { file: string } | null }> }) => ({ failed: error.errors ?? [] }));
  if ('failed' in result) {
    return { chains: [], errors: result.failed.map((e) => `${e.location?.file ?? '?'}: ${e.text}`), globals: [], inputs: [] };
  }
  const metafile = result.metafile as Metafile;
  const inputs = Object.keys(metafile.inputs);
  // esbuild names stdin after its resolveDir: `src/<stdin>`; chains and findings say `<stdin>`.
  const start = 'file' in entry ? entry.file : STDIN_INPUT;
  const label = (input: string) => (input === STDIN_INPUT ? '<stdin>' : input);
  const chains: string[] = [];
  // Breadth-first from the entry: the shortest chain to each forbidden import.
  const parent = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external && isForbidden(imported.path)) {
        const chain = [imported.path];
        for (let at: string | null | undefined = file; at; at = parent.get(at)) chain.unshift(label(at));
        chains.push(chain.join(' → '));
      } else if (!parent.has(imported.path) && metafile.inputs[imported.path]) {
        parent.set(imported.path, file);
        queue.push(imported.path);
      }
    }
  }
  const globals: string[] = [];
  for (const input of inputs) {
    if (!(input.startsWith('src/') || input.startsWith('mappings/'))) continue;
    const source = input === STDIN_INPUT && 'stdin' in entry ? entry.stdin : await readFile(`${ROOT}${input}`, 'utf8');
    const { code } = await transform(source, { loader: 'ts', legalComments: 'none' });
    const found = NODE_GLOBALS.exec(code);
    if (found) globals.push(`${label(input)}: ${found[0]}`);
  }
  return { chains, errors: [], globals, inputs };
}

describe('the core has no Node-only import', () => {
  it('bundles the edge entry (and with it src/app.ts and all it imports) as Wrangler does, with no Node-only module', async () => {
    const check = await checkCore({ file: 'src/edge/worker.ts' });
    expect(check.errors, 'unresolved modules').toEqual([]);
    expect(check.chains, 'Node-only modules reached from src/edge/worker.ts').toEqual([]);
    expect(check.globals, 'Node globals used by the core').toEqual([]);
    expect(check.inputs).toContain('src/app.ts');
    expect(check.inputs).toContain('src/upstream/fetch-client.ts');
    expect(check.inputs.some((input) => input.startsWith('mappings/'))).toBe(true);
  });

  describe('the rule catches what it claims to (fixtures)', () => {
    it('a node: builtin, with the chain that imports it', async () => {
      const check = await checkCore({ stdin: `import { readFileSync } from 'node:fs';\nexport const read = readFileSync;` });
      expect(check.chains).toEqual(['<stdin> → node:fs']);
    });

    it('a bare builtin name', async () => {
      const check = await checkCore({ stdin: `import { join } from 'path';\nexport const j = join;` });
      expect(check.chains).toEqual(['<stdin> → path']);
    });

    it('undici reached through a project module, named with the whole chain', async () => {
      const check = await checkCore({ stdin: `import { createUndiciUpstream } from './upstream/undici-client.js';\nexport const u = createUndiciUpstream;` });
      expect(check.chains).toContain('<stdin> → src/upstream/undici-client.ts → undici');
    });

    it('pino (the usage log) and @hono/node-server through the Node entry', async () => {
      const check = await checkCore({ stdin: `export { startGateway } from './node/server.js';` });
      expect(check.chains.some((chain) => chain.endsWith('→ pino'))).toBe(true);
      expect(check.chains.some((chain) => chain.endsWith('→ @hono/node-server'))).toBe(true);
      expect(check.chains.some((chain) => chain.endsWith('→ node:http'))).toBe(true);
    });

    it('a Node global without an import', async () => {
      const check = await checkCore({ stdin: `// process.env in a comment is fine\nexport const port = process.env['PORT'];` });
      expect(check.chains).toEqual([]);
      expect(check.globals).toEqual(['<stdin>: process.']);
    });

    it('a module that cannot be resolved', async () => {
      const check = await checkCore({ stdin: `export { x } from 'no-such-package-anywhere';` });
      expect(check.errors.join('\n')).toMatch(/no-such-package-anywhere/);
    });
  });
});
