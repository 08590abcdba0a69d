/**
 * The flags of `npm run bench -- [mode] [flags]`, one parser for every mode, with each mode's
 * defaults; docs/benchmarks-anchors.md lists them. Bad flags throw (bench/run.ts: exit 2).
 */
import { parseArgs } from 'node:util';

export const MODES = ['anchors', 'profile', 'soak', 'syscalls'] as const;
export type Mode = (typeof MODES)[number];

// warmup 3 s (DECISION, docs/benchmarks-anchors.md): with 1 s, the first round of a traced gateway and of two workers measured 15-40 % above its later rounds.
const NUMBERS = { duration: 6, connections: 50, rounds: 4, runs: 1, warmup: 3, requests: 20_000 };
const MODE_NUMBERS: Readonly<Partial<Record<Mode | 'smoke' | 'gc', Partial<typeof NUMBERS>>>> = {
  smoke: { duration: 0.5, rounds: 1, warmup: 0.5 },
  profile: { duration: 15 },
  gc: { duration: 6, runs: 3 },
  soak: { duration: 60, warmup: 5 },
};

export type Options = ReturnType<typeof parseOptions>;

/** What a mode hands back: what `--json` writes, and the exit code when not 0. */
export type Outcome = { readonly json: unknown; readonly code?: number };

export function parseOptions(argv: readonly string[]) {
  const named = (MODES as readonly string[]).includes(argv[0] ?? '');
  const mode = named ? (argv[0] as Mode) : 'anchors';
  if (!named && argv[0] !== undefined && !argv[0].startsWith('-')) throw new Error(`no mode ${JSON.stringify(argv[0])}: one of ${MODES.slice(1).join(', ')} (or none: the anchors)`);
  const { values } = parseArgs({
    args: argv.slice(named ? 1 : 0),
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      requests: { type: 'string' },
      json: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      gc: { type: 'boolean', default: false },
      target: { type: 'string', default: 'gw-legacy' },
      targets: { type: 'string', default: 'floor-log,gw-legacy,hono-log,gw-cache' },
      scenarios: { type: 'string' },
      flags: { type: 'string', default: '' },
      compare: { type: 'string' },
      out: { type: 'string', default: '.bench-profiles' },
    },
    strict: true,
    allowPositionals: false,
  });
  const smoke = values.smoke === true;
  const gc = mode === 'profile' && values.gc === true;
  const defaults = { ...NUMBERS, ...MODE_NUMBERS[mode], ...(smoke ? MODE_NUMBERS.smoke : {}), ...(gc ? MODE_NUMBERS.gc : {}) };
  const number = (name: keyof typeof NUMBERS, allowZero = false): number => {
    const text = values[name];
    const value = text === undefined ? defaults[name] : Number(text);
    const whole = name !== 'duration' && name !== 'warmup';
    if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero) || (whole && !Number.isInteger(value))) {
      throw new Error(`--${name}: must be a ${whole ? 'whole ' : ''}number ${allowZero ? '≥ 0' : '> 0'}, got ${JSON.stringify(text)}`);
    }
    return value;
  };
  const list = (text: string, separator: RegExp) => text.split(separator).filter((word) => word.length > 0);
  return {
    mode,
    durationS: number('duration'),
    connections: number('connections'),
    rounds: number('rounds'),
    runs: number('runs'),
    warmupS: number('warmup', true),
    requests: number('requests'),
    json: values.json,
    smoke,
    gc,
    /** How long the cache fill may take before the RSS is read anyway. */
    fillBudgetMs: smoke ? 300 : 60_000,
    target: values.target,
    targets: list(values.targets, /\s*,\s*/),
    /** The anchors run's scenarios by id (bench/scenarios.ts), all when not given. */
    scenarios: values.scenarios === undefined ? undefined : list(values.scenarios, /\s*,\s*/),
    flags: list(values.flags, /\s+/),
    compare: values.compare === undefined ? undefined : list(values.compare, /\s+/),
    out: values.out,
    /** The command as typed, for the report. */
    command: commandOf(argv),
  };
}

function commandOf(args: readonly string[]): string {
  const shown = args.map((arg) => (/^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
  if (process.env['npm_lifecycle_event'] === 'bench') return `npm run bench${shown ? ` -- ${shown}` : ''}`;
  return `node ${process.execArgv.join(' ')} bench/run.ts${shown ? ` ${shown}` : ''}`;
}
