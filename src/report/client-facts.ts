/**
 * What the report counts per client for its client section (client-sections.ts): answers and 5xx
 * per operation and side, and requests per client program. Filled line by line by the file
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
  /** 5xx answers. */
  errors: number;
}

export interface ClientFacts {
  /** Operation → side → counts. */
  readonly operations: Map<string, Map<string, SideAgg>>;
  /** Client program family (the usage line's `clientProgram`) → requests. */
  readonly programs: Map<string, number>;
}

export const newClientFacts = (): ClientFacts => ({ operations: new Map(), programs: new Map() });

/** `answers` answers of one operation by one side, `errors` of them 5xx. */
export function countAnswers(facts: ClientFacts, operation: string, side: string, answers: number, errors: number): void {
  let sides = facts.operations.get(operation);
  if (!sides) facts.operations.set(operation, (sides = new Map()));
  let counts = sides.get(side);
  if (!counts) sides.set(side, (counts = { answers: 0, errors: 0 }));
  counts.answers += answers;
  counts.errors += errors;
}

export function countProgram(facts: ClientFacts, program: string, requests: number): void {
  facts.programs.set(program, (facts.programs.get(program) ?? 0) + requests);
}
