/**
 * Joins the chunks of a request body read from a stream (a Web `ReadableStream` or a Node request) into one byte
 * array. Plain `Uint8Array`s, so the main entry needs no Node `Buffer`.
 */

/** The chunks in order as one `Uint8Array` of `size` bytes; a single chunk is returned as it is. */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
