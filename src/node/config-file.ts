/**
 * Loading the config document from a file (`--config FILE` or `GATEWAY_CONFIG`): JSON, or YAML
 * when the file is named `.yaml`/`.yml`. Errors name the file, then a syntax error's line and
 * column, or each key and its rule. When the document has errors, the files it names are read and
 * parsed too (src/node/config-files.ts): every error comes in one round.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { jsonErrorOffset, positionAt } from '../config/json-error-at.js';
import { parseConfig } from '../config/schema.js';
import type { ConfigResult } from '../config/schema.js';
import { fileProblems } from './config-files.js';

type Parsed = { ok: true; document: unknown } | { ok: false; error: string };

function parseJson(text: string): Parsed {
  try {
    return { ok: true, document: JSON.parse(text) as unknown };
  } catch (error) {
    const offset = jsonErrorOffset(text);
    const { line, column } = positionAt(text, offset < 0 ? text.length : offset);
    const what = offset >= text.length ? 'the text ends too soon' : `unexpected ${JSON.stringify(text[offset])}`;
    return { ok: false, error: `is not valid JSON: line ${line}, column ${column}: ${what} (${(error as Error).message.split('\n')[0]})` };
  }
}

function parseYaml(text: string): Parsed {
  const document = parseDocument(text, { prettyErrors: true });
  const [first] = document.errors;
  if (!first) return { ok: true, document: document.toJS() as unknown };
  const at = first.linePos?.[0];
  const where = at ? `line ${at.line}, column ${at.col}: ` : '';
  return { ok: false, error: `is not valid YAML: ${where}${first.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')}` };
}

/** A file's config, or its errors (with the document, when it could be parsed, for the checks of other parts). */
export type LoadedConfigFile = ConfigResult | { readonly ok: false; readonly errors: string[]; readonly document: unknown };

/** `prepare`: applied to the document as read, before it is validated (`--sandbox --config FILE` points its upstreams at the sandbox). */
export async function loadConfigFile(path: string, prepare: (document: unknown) => unknown = (document) => document): Promise<LoadedConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, errors: [`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`] };
  }
  const yaml = ['.yaml', '.yml'].includes(extname(path).toLowerCase());
  const parsed = yaml ? parseYaml(text) : parseJson(text);
  if (!parsed.ok) return { ok: false, errors: [`${path}: ${parsed.error}`] };
  const document = prepare(parsed.document);
  const result = parseConfig(document);
  if (result.ok) return result;
  const files = await fileProblems(document);
  return { ok: false, errors: [...result.errors, ...files].map((e) => `${path}: ${e}`), document };
}
