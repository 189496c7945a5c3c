import { brotliCompress, constants, gzip } from "node:zlib";
import { promisify } from "node:util";
import type { CachedResponse } from "./response-cache.js";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = "br" | "gzip" | "identity";

/** The best encoding the client accepts (q-values honoured), br before gzip. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q.set(name, qp ? Number(qp.slice(2)) : 1);
  }
  const weight = (name: string): number => q.get(name) ?? q.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return "identity";
}

interface Variant {
  readonly body: Buffer;
  readonly etag: string;
}

const variants = new WeakMap<CachedResponse, Map<Encoding, Promise<Variant>>>();

/**
 * The response body in the chosen encoding, compressed once per cached
 * response; a compressed body gets its own ETag (`-br`, `-gz` suffix).
 */
export function encoded(res: CachedResponse, encoding: Encoding): Promise<Variant> {
  if (encoding === "identity" || res.body.byteLength < 256) return Promise.resolve({ body: res.body, etag: res.etag });
  let perResponse = variants.get(res);
  if (!perResponse) {
    perResponse = new Map();
    variants.set(res, perResponse);
  }
  let variant = perResponse.get(encoding);
  if (!variant) {
    const suffix = encoding === "br" ? "-br" : "-gz";
    const body =
      encoding === "br"
        ? brotliAsync(res.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : gzipAsync(res.body, { level: 6 });
    variant = body.then((b) => ({ body: b, etag: `${res.etag.slice(0, -1)}${suffix}"` }));
    perResponse.set(encoding, variant);
  }
  return variant;
}
