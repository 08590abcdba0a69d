/**
 * The requests that exercise a catalogue entry: its sandbox example (src/sandbox/behaviour.ts) sent in each of the entry's
 * path forms (the example's path ids put into each form's template, its query and body kept), so
 * that a test looping over the catalogue drives every form of every operation, a new one included.
 */
import type { Method, Operation } from '../../src/catalogue/operations.js';
import { CATALOGUE_ROUTES } from '../../src/catalogue/route-table.js';
import { SANDBOX_BEHAVIOUR } from '../../src/sandbox/behaviour.js';

export interface ExampleRequest {
  readonly method: Method;
  /** Path and query, the api key last. */
  readonly target: string;
  readonly body?: Readonly<Record<string, string | number>>;
}

export function exampleRequests(op: Operation, apiKey: string): ExampleRequest[] {
  const { method, target, body } = SANDBOX_BEHAVIOUR[op.id].example;
  const [path = '', query] = target.split('?');
  const example = CATALOGUE_ROUTES.match(method, path);
  if (example?.operation.id !== op.id) throw new Error(`${op.id}: its sandbox example ${method} ${target} is not one of its forms`);
  return op.forms.map((form) => {
    const formPath = form.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(example.pathParams[name] ?? ''));
    return { method: form.method, target: `${formPath}?${query ? `${query}&` : ''}api_key=${apiKey}`, ...(body ? { body } : {}) };
  });
}

/** An example's body as a client sends it: JSON, or a form for an XML client (a JSON body asks for a JSON answer). */
export function encodedBody(body: ExampleRequest['body'], json: boolean): { readonly contentType: string; readonly text: string } | undefined {
  if (!body) return undefined;
  if (json) return { contentType: 'application/json', text: JSON.stringify(body) };
  return { contentType: 'application/x-www-form-urlencoded', text: new URLSearchParams(Object.entries(body).map(([name, value]) => [name, String(value)])).toString() };
}
