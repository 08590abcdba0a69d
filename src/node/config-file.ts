/**
 * Loading the config document from a file (`--config FILE` or `GATEWAY_CONFIG`), JSON.
 * Errors name the file, then each key and its rule.
 */
import { readFile } from 'node:fs/promises';
import { parseConfig } from '../config/schema.js';
import type { ConfigResult } from '../config/schema.js';

export async function loadConfigFile(path: string): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, errors: [`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`] };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`${path}: is not valid JSON (${(error as Error).message})`] };
  }
  const result = parseConfig(document);
  return result.ok ? result : { ok: false, errors: result.errors.map((e) => `${path}: ${e}`) };
}
