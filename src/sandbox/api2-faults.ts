/**
 * Faults on demand for the api2 sandbox: for a fraction of its answers, change a named field (so
 * the mapped legacy answer differs from legacy's), answer 503, or answer late. It wraps the api2
 * sandbox app's fetch (api2-start.ts), leaving the app's routes and store as they are; set and
 * cleared from `SANDBOX_API2_FAULT` at start and from the admin listener (sandbox-admin.ts).
 * docs/sandbox-and-demo.md describes the settings.
 *
 * DECISION: which answers are faulted is counted, not drawn: the n-th eligible answer (counted from
 * the last change of the fault) is faulted when floor(n × fraction) moves up, so any run of answers
 * holds the fraction to within one answer and a test sees the same answers faulted every time.
 * Eligible: requests whose path starts with `path` (any, when unset); for `field`, the 2xx JSON
 * answers that carry the field at least once.
 * Runtime-agnostic (no `node:` import).
 */

export const API2_FAULT_KINDS = ['field', 'status', 'delay'] as const;
export type Api2FaultKind = (typeof API2_FAULT_KINDS)[number];

export interface Api2Fault {
  readonly kind: Api2FaultKind;
  /** Share of eligible answers faulted, 0 to 1. */
  readonly fraction: number;
  /** field: the api2 JSON field changed wherever it occurs in the answer (e.g. `Title`). */
  readonly field?: string | undefined;
  /** status: the status answered (500-599, default 503). */
  readonly status?: number | undefined;
  /** delay: milliseconds waited before answering (default 1000). */
  readonly delayMs?: number | undefined;
  /** Only requests whose path starts with this (case-insensitive), e.g. `/recipes`. */
  readonly path?: string | undefined;
}

export interface Api2FaultState {
  readonly fault: Api2Fault | null;
  /** Eligible answers seen and faulted since the fault was set. */
  readonly eligible: number;
  readonly faulted: number;
}

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** The marker appended to a changed string field. */
export const FAULT_MARK = ' [api2 fault]';

export class Api2Faults {
  private fault: Api2Fault | null = null;
  private eligible = 0;
  private faulted = 0;

  set(fault: Api2Fault | null): void {
    this.fault = fault;
    this.eligible = 0;
    this.faulted = 0;
  }

  clear(): void {
    this.set(null);
  }

  state(): Api2FaultState {
    return { fault: this.fault, eligible: this.eligible, faulted: this.faulted };
  }

  /** The next eligible answer: is it faulted? */
  private take(): boolean {
    const fraction = this.fault?.fraction ?? 0;
    const before = Math.floor(this.eligible * fraction);
    this.eligible += 1;
    const hit = Math.floor(this.eligible * fraction) > before;
    if (hit) this.faulted += 1;
    return hit;
  }

  /** The sandbox's fetch with the fault in force applied. */
  wrap(inner: FetchHandler): FetchHandler {
    return async (request) => {
      const fault = this.fault;
      if (!fault || !appliesTo(fault, request)) return inner(request);
      if (fault.kind === 'status') {
        if (!this.take()) return inner(request);
        await request.body?.cancel();
        return faultAnswer(fault.status ?? 503);
      }
      if (fault.kind === 'delay') {
        if (this.take()) await sleep(fault.delayMs ?? 1000);
        return inner(request);
      }
      const answer = await inner(request);
      if (answer.status < 200 || answer.status > 299 || !fault.field) return answer;
      const text = await answer.text();
      const body = parseJson(text);
      if (body === undefined || !carries(body, fault.field) || !this.take()) return new Response(text, answer);
      return new Response(JSON.stringify(changeField(body, fault.field)), { status: answer.status, headers: answer.headers });
    };
  }
}

function appliesTo(fault: Api2Fault, request: Request): boolean {
  if (!fault.path) return true;
  return new URL(request.url).pathname.toLowerCase().startsWith(fault.path.toLowerCase());
}

function faultAnswer(status: number): Response {
  return new Response(JSON.stringify({ Message: `sandbox fault: ${status}` }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function carries(value: unknown, field: string): boolean {
  if (Array.isArray(value)) return value.some((item) => carries(item, field));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, inner]) => key === field || carries(inner, field));
}

/** Every occurrence of `field` with a scalar value changed: text marked, numbers +1, booleans flipped, null given text. */
export function changeField(value: unknown, field: string): unknown {
  if (Array.isArray(value)) return value.map((item) => changeField(item, field));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === field ? changed(inner) : changeField(inner, field)]));
}

function changed(value: unknown): unknown {
  if (typeof value === 'string') return `${value}${FAULT_MARK}`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (value === null) return FAULT_MARK.trim();
  return value;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
