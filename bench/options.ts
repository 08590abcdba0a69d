/**
 * Command-line flags of `npm run bench`:
 *
 *   --duration S      seconds per scenario per round (default 6)
 *   --connections N   concurrent connections of the load generator (default 50)
 *   --rounds N        rounds; each runs every scenario once, order rotated (default 4)
 *   --runs N          whole runs in a row, then each ratio's median over them (default 1; the
 *                     performance targets are judged by `--runs 3`)
 *   --warmup S        unrecorded load per scenario before the first round (default 1)
 *   --json FILE       also write the results as JSON
 *   --smoke           ≈15 s of load in total: 0.5 s per scenario, 1 round, 0.5 s warm-up, partial cache fill
 *   --profile DIR     run the log-on pass-through gateway with --cpu-prof, profile written to DIR
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  readonly durationS: number;
  readonly connections: number;
  readonly rounds: number;
  readonly runs: number;
  readonly warmupS: number;
  readonly json: string | undefined;
  readonly smoke: boolean;
  readonly profileDir: string | undefined;
  /** How long the cache fill may take before the RSS is read anyway. */
  readonly fillBudgetMs: number;
  /** The command as typed, for the report. */
  readonly command: string;
}

export const DEFAULTS = { durationS: 6, connections: 50, rounds: 4, warmupS: 1, fillBudgetMs: 60_000 } as const;
export const SMOKE = { durationS: 0.5, rounds: 1, warmupS: 0.5, fillBudgetMs: 300 } as const;

function positive(name: string, text: string | undefined, fallback: number, integer: boolean, allowZero = false): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new Error(`--${name}: must be a ${integer ? 'whole ' : ''}number ${allowZero ? '≥ 0' : '> 0'}, got ${JSON.stringify(text)}`);
  return value;
}

function commandOf(args: readonly string[]): string {
  const shown = args.map((arg) => (/^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
  if (process.env['npm_lifecycle_event'] === 'bench') return `npm run bench${shown ? ` -- ${shown}` : ''}`;
  if (process.execArgv.includes('tsx')) return `node ${process.execArgv.join(' ')} bench/run.ts${shown ? ` ${shown}` : ''}`;
  return `tsx bench/run.ts${shown ? ` ${shown}` : ''}`;
}

export function parseBenchArgs(args: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      runs: { type: 'string' },
      warmup: { type: 'string' },
      json: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      profile: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const smoke = values.smoke === true;
  const base = smoke ? { ...DEFAULTS, ...SMOKE } : DEFAULTS;
  return {
    durationS: positive('duration', values.duration, base.durationS, false),
    connections: positive('connections', values.connections, base.connections, true),
    rounds: positive('rounds', values.rounds, base.rounds, true),
    runs: positive('runs', values.runs, 1, true),
    warmupS: positive('warmup', values.warmup, base.warmupS, false, true),
    json: values.json,
    smoke,
    profileDir: values.profile,
    fillBudgetMs: base.fillBudgetMs,
    command: commandOf(args),
  };
}
