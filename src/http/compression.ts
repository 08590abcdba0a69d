/**
 * gzip of a whole body, both ways: the gateway's own legacy-shaped answers (src/legacy/answer-policy.ts)
 * and the shadow comparison's reading of a compressed answer (src/traffic/shadow.ts). This module is
 * the runtime-agnostic one, over the web's CompressionStream and DecompressionStream; a runtime may
 * bind a faster one (RuntimeBindings.compression: Node's zlib, src/node/compression.ts). Both give
 * the same bytes (zlib's defaults).
 */
export interface Compression {
  gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>>;
  /** Rejects when the bytes are not gzip, or decode to more than `maxBytes`. */
  gunzip(bytes: Uint8Array<ArrayBuffer>, maxBytes: number): Promise<Uint8Array<ArrayBuffer>>;
}

export const webCompression: Compression = {
  async gzip(bytes) {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
  },
  async gunzip(bytes, maxBytes) {
    return withinBound(new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()), maxBytes);
  },
};

/** The decoded bytes, or a RangeError when they are more than `maxBytes`. */
export function withinBound(decoded: Uint8Array<ArrayBuffer>, maxBytes: number): Uint8Array<ArrayBuffer> {
  if (decoded.byteLength > maxBytes) throw new RangeError(`gzip body decodes to more than ${maxBytes} bytes`);
  return decoded;
}
