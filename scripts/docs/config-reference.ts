/**
 * The configuration reference of docs/configuration.md, generated from the zod schema
 * (src/config/schema.ts) with `z.toJSONSchema`: every key, its type and range, its default as the
 * schema applies it to a minimal config, and its meaning (config-descriptions.ts).
 */
import { z } from 'zod';
import { GatewayConfigSchema } from '../../src/config/schema.js';
import { describeKey } from './config-descriptions.js';

interface JsonNode {
  type?: string;
  properties?: Record<string, JsonNode>;
  required?: string[];
  additionalProperties?: JsonNode | boolean;
  items?: JsonNode;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

export interface ConfigKey {
  /** `listen.port`, `routes.<operation id>.mode`. */
  readonly key: string;
  readonly type: string;
  readonly required: boolean;
  readonly defaultValue: unknown;
  readonly description: string | undefined;
}

const RECORD_KEY_NAMES: Readonly<Record<string, string>> = { routes: '<operation id>' };

/** The defaults the schema fills in for a config that names only the legacy upstream (breakers.legacy: off). */
const MINIMAL = { upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } } };
const APPLIED = GatewayConfigSchema.parse(MINIMAL) as unknown;

export function configKeys(): ConfigKey[] {
  const root = z.toJSONSchema(GatewayConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonNode;
  const keys: ConfigKey[] = [];
  const walk = (node: JsonNode, path: string[], required: boolean): void => {
    if (node.type === 'object' && node.properties) {
      for (const [name, child] of Object.entries(node.properties)) walk(child, [...path, name], (node.required ?? []).includes(name));
      return;
    }
    const values = node.additionalProperties;
    if (node.type === 'object' && typeof values === 'object' && values.type === 'object') {
      walk(values, [...path, RECORD_KEY_NAMES[path.join('.')] ?? '<name>'], false);
      return;
    }
    const key = path.join('.');
    const applied = valueAt(MINIMAL, path) === undefined ? valueAt(APPLIED, path) : undefined;
    keys.push({ key, type: typeOf(node), required, defaultValue: applied !== undefined ? applied : node.default, description: describeKey(key) });
  };
  walk(root, [], true);
  return keys;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const name of path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined;
  return at;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` ${min.toLocaleString('en-US')}–${max.toLocaleString('en-US')}`;
  if (min !== undefined) return ` ≥ ${min.toLocaleString('en-US')}`;
  return max !== undefined ? ` ≤ ${max.toLocaleString('en-US')}` : '';
}

function typeOf(node: JsonNode): string {
  if (node.enum) return node.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (node.type === 'array') return `list of ${node.items ? typeOf(node.items) : 'values'}`;
  if (node.type === 'object') return `map of name → ${typeof node.additionalProperties === 'object' ? typeOf(node.additionalProperties) : 'value'}`;
  if (node.type === 'integer' || node.type === 'number') return `${node.type}${range(node.minimum, node.maximum)}`;
  if (node.type === 'string' && node.format === 'uri') return 'URL';
  if (node.type === 'string' && node.minLength !== undefined && node.minLength > 1) return `string, ≥ ${node.minLength} characters`;
  if (node.type === 'string' && node.maxLength !== undefined) return `string, ≤ ${node.maxLength} characters`;
  return node.type ?? 'value';
}

function defaultCell(entry: ConfigKey): string {
  if (entry.defaultValue !== undefined) return `\`${JSON.stringify(entry.defaultValue)}\``;
  return entry.required ? 'required' : '—';
}

export function configReferenceMarkdown(): string {
  const lines = ['| key | type | default | meaning |', '|---|---|---|---|'];
  for (const entry of configKeys()) {
    lines.push(`| \`${entry.key}\` | ${entry.type} | ${defaultCell(entry)} | ${(entry.description ?? '').replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n');
}
