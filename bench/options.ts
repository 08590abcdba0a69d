/**
 * The flags of `npm run bench -- [mode] [flags]`, one parser for every mode (defaults per mode):
 *
 *   --duration S      seconds of load: per scenario per round (6; ab 5, profile 15, gc per run 6, soak 60)
 *   --connections N   concurrent connections of the load generator (50)
 *   --rounds N        anchors: rounds, each every scenario once, order rotated (4); ab: rounds (6)
 *   --runs N          anchors: whole runs in a row, then each ratio's median over them (1); gc: fresh processes (3)
 *   --warmup S        unrecorded load first: per scenario (1), soak (5)
 *   --json FILE       also write the results as JSON
 *   --smoke           anchors, ≈15 s of load in all: 0.5 s per scenario, 1 round, 0.5 s warm-up, partial cache fill
 *   --target T        gc, profile: the process under test (gw-legacy)
 *   --targets LIST    ab (gw-legacy,gw-cache), syscalls (floor-log,gw-legacy,hono-log,gw-cache)
 *   --base REF, --this-ref REF, --this-flags=FLAGS     ab
 *   --flags=FLAGS, --compare=FLAGS                    gc
 *   --out DIR         profile (.bench-profiles)
 *   --requests N      syscalls (20000)
 */
import { parseArgs } from 'node:util';

export const MODES = ['anchors', 'ab', 'gc', 'profile', 'soak', 'syscalls'] as const;
export type Mode = (typeof MODES)[number];

const NUMBERS = { duration: 6, connections: 50, rounds: 4, runs: 1, warmup: 1, requests: 20_000 };
const MODE_NUMBERS: Readonly<Record<Mode | 'smoke', Partial<typeof NUMBERS>>> = {
  anchors: {},
  smoke: { duration: 0.5, rounds: 1, warmup: 0.5 },
  ab: { duration: 5, rounds: 6 },
  gc: { runs: 3 },
  profile: { duration: 15 },
  soak: { duration: 60, warmup: 5 },
  syscalls: {},
};
const TARGETS: Partial<Record<Mode, string>> = { ab: 'gw-legacy,gw-cache', syscalls: 'floor-log,gw-legacy,hono-log,gw-cache' };

export type Options = ReturnType<typeof parseOptions>;

/** What a mode hands back: what `--json` writes, and the exit code when not 0. */
export interface Outcome {
  readonly json: unknown;
  readonly code?: number;
}

export function parseOptions(argv: readonly string[]) {
  const named = (MODES as readonly string[]).includes(argv[0] ?? '');
  const mode = named ? (argv[0] as Mode) : 'anchors';
  const args = named ? argv.slice(1) : argv;
  const { values } = parseArgs({
    args: [...args],
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      requests: { type: 'string' },
      json: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      target: { type: 'string', default: 'gw-legacy' },
      targets: { type: 'string', default: TARGETS[mode] ?? '' },
      base: { type: 'string', default: 'HEAD' },
      'this-ref': { type: 'string' },
      'this-flags': { type: 'string', default: '' },
      flags: { type: 'string', default: '' },
      compare: { type: 'string' },
      out: { type: 'string', default: '.bench-profiles' },
    },
    strict: true,
    allowPositionals: false,
  });
  const smoke = values.smoke === true;
  const defaults = { ...NUMBERS, ...MODE_NUMBERS[mode], ...(smoke ? MODE_NUMBERS.smoke : {}) };
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
    /** How long the cache fill may take before the RSS is read anyway. */
    fillBudgetMs: smoke ? 300 : 60_000,
    target: values.target,
    targets: list(values.targets, /\s*,\s*/),
    base: values.base,
    thisRef: values['this-ref'],
    thisFlags: list(values['this-flags'], /\s+/),
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
