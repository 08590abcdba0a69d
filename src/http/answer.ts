/**
 * Answers the gateway builds itself (its errors, pass-through answers, cached and mapped pages)
 * are kept as their parts, status, a plain header object and a body of known size, beside the
 * Response. The request context can then add a header (X-Request-Id) by building the Response
 * once more from the parts, and the usage log knows the body's size, without reading the
 * Response's headers: on @hono/node-server that would build a Headers object, and setting a
 * header on the Node response instead takes Node's slow path for writing the head (measured:
 * about 40 µs per request, a quarter of a cache hit's cost).
 *
 * A header object marked shared (a cached page's, built once per stored answer) is copied before
 * a header is added; any other belongs to its one answer, and gets the header in place.
 */

export interface AnswerParts {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array<ArrayBuffer> | string | null;
  /** Bytes of the body once encoded (0 without one). */
  readonly bytes: number;
  /** The header object is shared with other answers: never mutate it. */
  readonly sharedHeaders: boolean;
}

/** Kept on the Response itself (not in a WeakMap: weak tables cost the collector work per answer). */
const PARTS = Symbol('recipe-gateway.answerParts');
type WithParts = Response & { [PARTS]?: AnswerParts };

/**
 * Builds an answer from its parts and keeps them. The header object becomes the answer's own
 * unless `sharedHeaders` says others use it too.
 */
export function buildAnswer(
  status: number,
  headers: Record<string, string>,
  body: Uint8Array<ArrayBuffer> | string | null,
  bytes: number,
  sharedHeaders = false,
): Response {
  const response = new Response(body, { status, headers });
  (response as WithParts)[PARTS] = { status, headers, body, bytes, sharedHeaders };
  return response;
}

/** The parts of an answer built by `buildAnswer`, or undefined (a fetched Response, a Headers init). */
export function answerParts(response: Response): AnswerParts | undefined {
  return (response as WithParts)[PARTS];
}

/** The same answer with one more header, or undefined when its parts are not known. */
export function withHeader(response: Response, name: string, value: string): Response | undefined {
  const parts = (response as WithParts)[PARTS];
  if (!parts) return undefined;
  // The Response made from the parts is dropped: only the new one is ever sent or read.
  const headers = parts.sharedHeaders ? { ...parts.headers } : parts.headers;
  headers[name] = value;
  return buildAnswer(parts.status, headers, parts.body, parts.bytes);
}
