/**
 * The route table, compiled once from the catalogue: (method, normalised path) → operation.
 *
 * Accepted variations, as the legacy server did (legacy-interface.md part 4, api2-notes "Versioned
 * legacy paths"): any `/v{n}` prefix, one trailing slash, any letter case, every path form of the
 * catalogue (canonical, malformed as published, regular). HEAD is matched as GET.
 */
import { OPERATIONS } from './operations.js';
import type { Method, Operation, PathForm, PathFormKind } from './operations.js';
import { rememberedWhenShort } from '../hot-path.js';
import type { KeyedMemo } from '../hot-path.js';

export interface RouteMatch {
  readonly operation: Operation;
  readonly form: PathForm;
  /** Path parameters, percent-decoded. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** `v1` for `/v1/recipes`, null without a prefix. */
  readonly versionPrefix: string | null;
  readonly trailingSlash: boolean;
}

/** How a request named its operation, for the usage log and the migration report. */
export type FormUsed = PathFormKind;

interface CompiledForm {
  readonly operation: Operation;
  readonly form: PathForm;
  readonly pattern: RegExp;
  readonly paramNames: readonly string[];
}

const VERSION_PREFIX = /^\/(v[0-9]{1,3})(?=\/|$)/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileTemplate(template: string): { pattern: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = template
    .split(/(\{[a-z]+\})/)
    .map((part) => {
      const param = /^\{([a-z]+)\}$/.exec(part);
      if (param?.[1]) {
        paramNames.push(param[1]);
        return '([^/]+)';
      }
      return escapeRegExp(part);
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`, 'i'), paramNames };
}

export class RouteTable {
  private readonly byMethod = new Map<string, CompiledForm[]>();

  constructor(operations: readonly Operation[] = OPERATIONS) {
    for (const operation of operations) {
      for (const form of operation.forms) {
        const { pattern, paramNames } = compileTemplate(form.template);
        const list = this.byMethod.get(form.method) ?? [];
        list.push({ operation, form, pattern, paramNames });
        this.byMethod.set(form.method, list);
      }
    }
  }

  /**
   * A path's match per method asked, remembered (a pure function of the two, frozen as it is
   * shared): a repeated request tries no pattern. Only methods some operation takes have a memo;
   * no match is not remembered.
   */
  private readonly remembered = new Map<string, KeyedMemo<string, RouteMatch | undefined>>();

  /** `path` must already be normalised (src/http/target.ts): no dot segments, no repeated slashes. */
  match(method: string, path: string): RouteMatch | null {
    if (!this.byMethod.has(method === 'HEAD' ? 'GET' : method)) return null;
    let memo = this.remembered.get(method);
    if (!memo) this.remembered.set(method, (memo = rememberedWhenShort(1024, 256, (asked: string) => frozenMatch(this.matchAfresh(method, asked)))));
    return memo(path, path) ?? null;
  }

  /** The match worked out again, without the memo (what the memo remembers; tests compare the two). */
  matchAfresh(method: string, path: string): RouteMatch | null {
    const candidates = this.byMethod.get(method === 'HEAD' ? 'GET' : method);
    if (!candidates) return null;

    let rest = path;
    let versionPrefix: string | null = null;
    const version = VERSION_PREFIX.exec(rest);
    if (version?.[1]) {
      versionPrefix = version[1].toLowerCase();
      rest = rest.slice(version[0].length) || '/';
    }
    let trailingSlash = false;
    if (rest.length > 1 && rest.endsWith('/')) {
      trailingSlash = true;
      rest = rest.slice(0, -1);
    }

    for (const candidate of candidates) {
      const found = candidate.pattern.exec(rest);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      candidate.paramNames.forEach((name, index) => {
        pathParams[name] = safeDecode(found[index + 1] ?? '');
      });
      return { operation: candidate.operation, form: candidate.form, pathParams, versionPrefix, trailingSlash };
    }
    return null;
  }

  /** Methods that some operation accepts on this path (for a 405 answer); empty when none. */
  methodsFor(path: string): Method[] {
    const methods: Method[] = [];
    for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
      if (this.match(method, path)) methods.push(method);
    }
    return methods;
  }
}

function frozenMatch(found: RouteMatch | null): RouteMatch | undefined {
  return found ? Object.freeze({ ...found, pathParams: Object.freeze(found.pathParams) }) : undefined;
}

/** The catalogue's route table, compiled once for the process. */
export const CATALOGUE_ROUTES = new RouteTable();

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A path template for uncatalogued requests, so that logs group `/recipe/123` and `/recipe/456`
 * as `/recipe/{n}` and never carry raw identifiers.
 *
 * DECISION: a segment of 16 characters or more is written `{s}`. Such a segment is an identifier or
 * a secret far more often than a word of the API (BigOven api keys are 32 characters; the legacy
 * document's longest path word is 11), and a key that is not the request's own cannot be told
 * apart from an identifier, so none is kept.
 */
const LONG_SEGMENT = 16;

export function uncataloguedTemplate(path: string): string {
  return (
    path
      .split('/')
      .map((segment) => {
        if (segment === '') return segment;
        if (/^[0-9]+$/.test(segment)) return '{n}';
        if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(segment)) return '{guid}';
        if (segment.length >= LONG_SEGMENT || /%/.test(segment)) return '{s}';
        return segment.toLowerCase();
      })
      .join('/')
      .slice(0, 200) || '/'
  );
}
