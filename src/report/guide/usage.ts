/**
 * A client's legacy use, as the migration guide needs it: per operation, the requests, the first
 * and last use, the side that answered and its most frequent requests (the usage line's `params`
 * of answers below 400: top-requests.ts), and its client programs (User-Agent families),
 * counted from usage lines (a file, stdin) or from ClickHouse's sums (sources.ts). In memory
 * bounded by clients × (operations × (sides + kept requests) + client programs).
 *
 * DECISION: a guide's client is its label (every api key labelled alike is one client) or, for an
 * unlabelled key, its client hash, as each line names it: lines written before a label was
 * configured count under the hash.
 */
import type { LogRecord } from '../types.js';
import { TopRequests } from './top-requests.js';

export interface OperationUsage {
  requests: number;
  first: number;
  last: number;
  /** Requests per side that answered (`legacy`, `api2`, `gateway`). */
  readonly bySide: Map<string, number>;
  /** Its most frequent `params` among answers below 400; empty from lines without `params` (an older log). */
  readonly topRequests: TopRequests;
}

export interface ClientUsage {
  /** The label, or the client hash of an unlabelled key. */
  readonly client: string;
  /** The client hashes counted under it. */
  readonly hashes: Set<string>;
  first: number;
  last: number;
  /** By operation id (`uncatalogued` for calls no operation matches). */
  readonly operations: Map<string, OperationUsage>;
  /** Requests by client program (the usage line's `clientProgram`); requests without one are not here. */
  readonly programs: Map<string, number>;
}

/** Which lines a guide counts: since when (epoch ms), and for which clients (labels or hashes; all when undefined). */
export interface GuideFilter {
  readonly since: number;
  readonly clients: ReadonlySet<string> | undefined;
}

export class UsageTally {
  readonly clients = new Map<string, ClientUsage>();

  constructor(private readonly filter: GuideFilter) {}

  /** The client a line counts under, or undefined when it is not counted. */
  clientOf(hash: string | undefined, label: string | undefined): string | undefined {
    if (hash === undefined) return undefined;
    const client = label ?? hash;
    const wanted = this.filter.clients;
    return wanted === undefined || wanted.has(client) || wanted.has(hash) ? client : undefined;
  }

  add(record: LogRecord): void {
    if (record.time < this.filter.since || record.operation === 'unrouted') return;
    const client = this.clientOf(record.client, record.clientLabel);
    if (client === undefined) return;
    this.addCounts(client, record.client!, record.operation, record.mode, 1, record.time, record.time);
    if (record.clientProgram !== undefined) this.addProgram(client, record.clientProgram, 1);
    if (record.params !== undefined && record.status < 400) this.addRequests(client, record.operation, record.params, 1);
  }

  /** `requests` of a client and operation counted already (addCounts) that sent these `params` and were answered below 400. */
  addRequests(client: string, operation: string, params: string, requests: number): void {
    this.clients.get(client)?.operations.get(operation)?.topRequests.add(params, requests);
  }

  /** `requests` of a client counted already (addCounts) made by one client program. */
  addProgram(client: string, program: string, requests: number): void {
    const programs = this.clients.get(client)?.programs;
    programs?.set(program, (programs.get(program) ?? 0) + requests);
  }

  /** `requests` of one client, operation and side, first and last at these times (ClickHouse gives sums). */
  addCounts(client: string, hash: string, operation: string, side: string, requests: number, first: number, last: number): void {
    let usage = this.clients.get(client);
    if (!usage) this.clients.set(client, (usage = { client, hashes: new Set(), first, last, operations: new Map(), programs: new Map() }));
    usage.hashes.add(hash);
    usage.first = Math.min(usage.first, first);
    usage.last = Math.max(usage.last, last);
    let op = usage.operations.get(operation);
    if (!op) usage.operations.set(operation, (op = { requests: 0, first, last, bySide: new Map(), topRequests: new TopRequests() }));
    op.requests += requests;
    op.first = Math.min(op.first, first);
    op.last = Math.max(op.last, last);
    op.bySide.set(side, (op.bySide.get(side) ?? 0) + requests);
  }
}
