/**
 * An api2 sandbox fault (api2-faults.ts) read from its written form: the fields of the admin call
 * or the console's form, or `SANDBOX_API2_FAULT` as `kind=field fraction=0.05 field=Title`
 * (pairs separated by spaces or commas). Errors name the field, all at once.
 */
import { API2_FAULT_KINDS } from './api2-faults.js';
import type { Api2Fault, Api2FaultKind } from './api2-faults.js';

export type FaultSetting = { readonly ok: true; readonly fault: Api2Fault } | { readonly ok: false; readonly errors: string[] };

/** The environment variable read at start. */
export const FAULT_ENVIRONMENT = 'SANDBOX_API2_FAULT';

export function faultFromFields(fields: Readonly<Record<string, unknown>>): FaultSetting {
  const errors: string[] = [];
  const text = (name: string): string | undefined => {
    const value = fields[name];
    if (value === undefined || value === null || value === '') return undefined;
    return String(value).trim();
  };
  const number = (name: string, min: number, max: number): number | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (Number.isFinite(value) && value >= min && value <= max) return value;
    errors.push(`${name}: a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return undefined;
  };
  const kind = text('kind');
  if (!kind || !(API2_FAULT_KINDS as readonly string[]).includes(kind)) errors.push(`kind: one of ${API2_FAULT_KINDS.join(', ')}, got ${JSON.stringify(kind ?? '')}`);
  // A percent is accepted too, for the console's form: `percent=5` is `fraction=0.05`.
  const percent = number('percent', 0, 100);
  const fraction = number('fraction', 0, 1) ?? (percent === undefined ? undefined : percent / 100);
  if (fraction === undefined && !errors.some((e) => e.startsWith('fraction') || e.startsWith('percent'))) errors.push('fraction: required (0 to 1), or percent (0 to 100)');
  const field = text('field');
  if (kind === 'field' && !field) errors.push('field: required with kind=field (an api2 JSON field, e.g. Title)');
  if (field !== undefined && !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(field)) errors.push(`field: a JSON field name, got ${JSON.stringify(field)}`);
  const status = number('status', 500, 599);
  const delayMs = number('delayMs', 0, 60_000);
  const path = text('path');
  if (path !== undefined && !path.startsWith('/')) errors.push(`path: starts with /, got ${JSON.stringify(path)}`);
  if (errors.length > 0 || fraction === undefined) return { ok: false, errors };
  return {
    ok: true,
    fault: {
      kind: kind as Api2FaultKind,
      fraction,
      ...(kind === 'field' ? { field } : {}),
      ...(kind === 'status' ? { status: status ?? 503 } : {}),
      ...(kind === 'delay' ? { delayMs: delayMs ?? 1000 } : {}),
      ...(path ? { path } : {}),
    },
  };
}

/** `kind=field fraction=0.05 field=Title` (spaces or commas between pairs). */
export function faultFromText(text: string): FaultSetting {
  const fields: Record<string, string> = {};
  for (const pair of text.split(/[\s,]+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) return { ok: false, errors: [`${FAULT_ENVIRONMENT}: name=value pairs, got ${JSON.stringify(pair)}`] };
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const setting = faultFromFields(fields);
  return setting.ok ? setting : { ok: false, errors: setting.errors.map((error) => `${FAULT_ENVIRONMENT}: ${error}`) };
}

/** One line for people: the banner, the console. */
export function describeFault(fault: Api2Fault | null): string {
  if (!fault) return 'none';
  const what = fault.kind === 'field' ? `field ${fault.field ?? ''} changed` : fault.kind === 'status' ? `answers ${fault.status ?? 503}` : `answers after ${fault.delayMs ?? 1000} ms`;
  return `${what} on ${Math.round(fault.fraction * 10_000) / 100} % of answers${fault.path ? ` under ${fault.path}` : ''}`;
}
