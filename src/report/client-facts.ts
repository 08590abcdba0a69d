/**
 * What the report counts per client for its client section (client-sections.ts): answers, 4xx
 * and 5xx per operation and side, and requests per client program. Filled line by line by the file
 * reader (aggregate.ts) and from grouped rows by ClickHouse (sources/clickhouse-counts.ts).
 */

/**
 * The side that answered, as the client section names it: `fallback` when api2 failed and legacy
 * answered, else the usage line's `mode` (legacy, api2, gateway).
 */
export function sideOf(mode: string, fallback: boolean): string {
  return fallback ? 'fallback' : mode;
}

export interface SideAgg {
  answers: number;
  /** Refusals among them (a side that refuses what the other accepts is a difference the client sees). */
  status4xx: number;
  status5xx: number;
}

export interface ClientFacts {
  /** Operation → side → counts. */
  readonly operations: Map<string, Map<string, SideAgg>>;
  /** Client program family (the usage line's `clientProgram`) → requests. */
  readonly programs: Map<string, number>;
}

export const newClientFacts = (): ClientFacts => ({ operations: new Map(), programs: new Map() });

/** `answers` answers of one operation by one side, `status4xx` and `status5xx` among them. */
export function countAnswers(facts: ClientFacts, operation: string, side: string, answers: number, status4xx: number, status5xx: number): void {
  let sides = facts.operations.get(operation);
  if (!sides) facts.operations.set(operation, (sides = new Map()));
  let counts = sides.get(side);
  if (!counts) sides.set(side, (counts = { answers: 0, status4xx: 0, status5xx: 0 }));
  counts.answers += answers;
  counts.status4xx += status4xx;
  counts.status5xx += status5xx;
}

const PROGRAMS_SHOWN = 10;
export const OTHER_PROGRAMS = '(other programs)';

/** The programs most requests first (ties by name), the first 10 by name and the rest summed as `(other programs)`. */
export function topPrograms(programs: ReadonlyMap<string, number>): Array<{ program: string; requests: number }> {
  const named = [...programs].map(([program, requests]) => ({ program, requests })).sort((a, b) => b.requests - a.requests || a.program.localeCompare(b.program));
  const shown = named.slice(0, PROGRAMS_SHOWN);
  const others = named.slice(PROGRAMS_SHOWN).reduce((sum, p) => sum + p.requests, 0);
  return others > 0 ? [...shown, { program: OTHER_PROGRAMS, requests: others }] : shown;
}

export function countProgram(facts: ClientFacts, program: string, requests: number): void {
  facts.programs.set(program, (facts.programs.get(program) ?? 0) + requests);
}
