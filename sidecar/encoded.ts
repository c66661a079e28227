/**
 * Compressed forms of a kept answer, made once on first demand and kept beside its body, so a
 * repeated query is not compressed again on every request (@fastify/compress leaves a reply alone
 * once it carries Content-Encoding). Brotli and gzip run on the zlib thread pool; small bodies are
 * sent as they are, as @fastify/compress does below its threshold.
 */
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { parseAcceptEncoding } from "./files.ts";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Bodies smaller than this are not compressed (@fastify/compress's threshold in app.ts). */
export const COMPRESS_MIN_BYTES = 1024;

export type Encoding = "br" | "gzip";

/** The encodings of one body, each a promise until it is made, then the bytes. */
export type Variants = Partial<Record<Encoding, Buffer | Promise<Buffer>>>;

/**
 * Brotli quality 5: within a few percent of quality 11's size on these JSON and Markdown answers
 * at a small part of its time (made once per kept answer, but a search can have many).
 */
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === "br"
    ? brotli(body, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 5,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gz(body, { level: 6 });
}

/** The encoding to answer with, or undefined for the body as it is. */
export function chooseEncoding(body: Buffer, acceptEncoding: string | string[] | undefined): Encoding | undefined {
  if (body.length < COMPRESS_MIN_BYTES || !acceptEncoding) return undefined;
  const accepted = parseAcceptEncoding(acceptEncoding);
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return undefined;
}

/** The body in `encoding`, made on first demand and kept in `variants`. */
export async function encodedBody(variants: Variants, body: Buffer, encoding: Encoding): Promise<Buffer> {
  const kept = variants[encoding];
  if (kept instanceof Buffer) return kept;
  if (kept) return kept;
  const making = compress(body, encoding).then(
    (bytes) => (variants[encoding] = bytes),
    (error: unknown) => {
      delete variants[encoding];
      throw error;
    },
  );
  variants[encoding] = making;
  return making;
}
