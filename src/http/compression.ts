// Response compression (gzip, Brotli) negotiated from Accept-Encoding. A buffer that is served again and again
// (a cached entity revision, a frozen rendering: reply-error.ts jsonBuffer, rest/handlers/entities.ts) is
// compressed once and its compressed bytes live exactly as long as it does; any other body is compressed for
// its one response. Small bodies (errors, terms) go as they are: compressing them costs more than it saves.
import negotiator from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Bodies below this many bytes are sent uncompressed (about one TCP segment). */
export const COMPRESS_MIN_BYTES = 1024;

const compressors: Record<Encoding, (bytes: Buffer) => Promise<Buffer>> = {
  // Quality 4 compresses a 350 KB entity in a few milliseconds to about gzip's size; 11 would take a second.
  br: (bytes) => promisify(brotliCompress)(bytes, { params: {
    [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  gzip: (bytes) => promisify(gzip)(bytes, { level: 6 }),
};

const negotiate = new negotiator.Negotiator<Encoding>({ supportedValues: ['br', 'gzip'] });
const compressed = new WeakMap<Buffer, Partial<Record<Encoding, Promise<Buffer>>>>();

/** The encoding to answer with, or null to send the body as it is. */
export function chooseEncoding(acceptEncoding: string | undefined, size: number): Encoding | null {
  if (!acceptEncoding || size < COMPRESS_MIN_BYTES) return null;
  return negotiate.negotiate(acceptEncoding);
}

/** `bytes` compressed; the same promise for every request that serves the same buffer. */
export function compress(bytes: Buffer, encoding: Encoding): Promise<Buffer> {
  let forms = compressed.get(bytes);
  if (!forms) compressed.set(bytes, forms = {});
  return forms[encoding] ??= compressors[encoding](bytes);
}

/**
 * The body to send for `bytes`: compressed when the client accepts an encoding and the body is large enough,
 * with `Vary` and `Content-Encoding` set on the reply; the bytes as they are otherwise.
 */
export async function negotiatedBody(reply: FastifyReply, bytes: Buffer): Promise<Buffer> {
  if (bytes.length < COMPRESS_MIN_BYTES) return bytes;
  reply.header('vary', 'Accept-Encoding');
  const encoding = chooseEncoding(reply.request.headers['accept-encoding'], bytes.length);
  if (!encoding) return bytes;
  reply.header('content-encoding', encoding);
  return compress(bytes, encoding);
}

/**
 * Sends `bytes` as `contentType`, negotiated (negotiatedBody): how JSON and RDF bodies leave the server. The web
 * interface's pages go through the same negotiation in app.ts's onSend hook (the interface may not import the
 * HTTP kernel).
 */
export async function sendBody(reply: FastifyReply, bytes: Buffer, contentType: string): Promise<FastifyReply> {
  reply.header('content-type', contentType);
  return reply.send(await negotiatedBody(reply, bytes));
}

/**
 * A JSON body made piece by piece as it is sent, each piece JSON text already: a batch of 500 entities, 5 MB.
 * Made whole before sending, its bytes lived until the last of them left, long enough to outlive V8's young
 * generation and wait for a full collection: ten clients fetching 500 random items each held the server's memory
 * outside the heap at 101 MB and its peak RSS at 274 MB (bench/batch-memory.mjs, 20,000-item store). Made as
 * the connection takes them: 39 to 52 MB, peak RSS 220 to 234 MB.
 */
export class JsonStream {
  constructor(private readonly source: () => AsyncIterable<Buffer>) {}

  /** The same stream with each piece rewritten (a piece is a whole value or the text between two). */
  map(rewrite: (piece: Buffer) => Buffer): JsonStream {
    const source = this.source;
    return new JsonStream(async function* rewritten() {
      for await (const piece of source()) yield rewrite(piece);
    });
  }

  /** The whole body, for a client that asks for it compressed (compressing needs it whole, as for any body). */
  async join(): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for await (const piece of this.source()) pieces.push(piece);
    return Buffer.concat(pieces);
  }

  readable(): Readable {
    return Readable.from(this.source(), { objectMode: false });
  }
}

/** Sends `body` as `contentType`: whole and compressed when the client accepts an encoding, else streamed. */
export async function sendStream(reply: FastifyReply, body: JsonStream, contentType: string): Promise<FastifyReply> {
  // The size is not known before the pieces are made: asked as if at the threshold, sendBody then decides on the
  // real size (a body under it goes uncompressed, as any other).
  if (chooseEncoding(reply.request.headers['accept-encoding'], COMPRESS_MIN_BYTES)) return sendBody(reply, await body.join(), contentType);
  reply.header('vary', 'Accept-Encoding').header('content-type', contentType);
  return reply.send(body.readable());
}
