import type { IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { fromBinary, fromJsonString, type DescMessage, type DescService } from "@bufbuild/protobuf";

/**
 * Checks a Connect, gRPC or gRPC-web request body against its method's input
 * message before the adapter sees it. connect-es reports a body that does
 * not parse as protobuf as `internal` (a 500 carrying the parser's text), and
 * it inflates compressed messages up to 4 GiB; here both become the client's
 * fault: `invalid` (400) or `too_large` (413), decompressed size included.
 */
export type ConnectInputVerdict = "ok" | "invalid" | "too_large";

interface Framing {
  readonly binary: boolean;
  /** Enveloped messages (streaming Connect, gRPC, gRPC-web) rather than one bare message. */
  readonly enveloped: boolean;
  readonly encoding: string | undefined;
}

const connectType = /^application\/(connect\+)?(json|proto)(?:;\s*charset=utf-?8)?$/i;
const grpcType = /^application\/grpc(?:-web)?(?:\+(json|proto))?(?:;.*)?$/i;

/** The framing the content type declares, or undefined for one the adapter refuses itself (415). */
function framingOf(headers: IncomingHttpHeaders): Framing | undefined {
  const type = headers["content-type"] ?? "";
  const c = connectType.exec(type);
  if (c) {
    const enveloped = c[1] !== undefined;
    const encoding = enveloped ? headers["connect-content-encoding"] : headers["content-encoding"];
    return { binary: c[2]?.toLowerCase() === "proto", enveloped, encoding: typeof encoding === "string" ? encoding : undefined };
  }
  const g = grpcType.exec(type);
  if (g) {
    const encoding = headers["grpc-encoding"];
    return { binary: g[1]?.toLowerCase() !== "json", enveloped: true, encoding: typeof encoding === "string" ? encoding : undefined };
  }
  return undefined;
}

class TooLarge extends Error {}

function inflate(bytes: Uint8Array, encoding: string, maxBytes: number): Uint8Array {
  try {
    return encoding === "gzip" ? gunzipSync(bytes, { maxOutputLength: maxBytes }) : brotliDecompressSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    if (err instanceof RangeError) throw new TooLarge();
    throw err;
  }
}

function parses(schema: DescMessage, bytes: Uint8Array, binary: boolean): boolean {
  try {
    // The same options connect-es parses with, so exactly what it would refuse is refused here.
    if (binary) fromBinary(schema, bytes);
    else fromJsonString(schema, new TextDecoder().decode(bytes), { ignoreUnknownFields: true });
    return true;
  } catch {
    return false;
  }
}

/** Every enveloped message parses (flags 0 or 1 for compressed, lengths exact). */
function envelopesParse(schema: DescMessage, body: Uint8Array, f: Framing, maxBytes: number): boolean {
  let at = 0;
  while (at < body.byteLength) {
    if (body.byteLength - at < 5) return false;
    const flags = body[at] ?? 0;
    const length = Buffer.from(body.buffer, body.byteOffset + at + 1, 4).readUInt32BE(0);
    const end = at + 5 + length;
    if (flags > 1 || end > body.byteLength) return false;
    let message = body.subarray(at + 5, end);
    if (flags === 1) {
      if (f.encoding === undefined || f.encoding === "identity") return false;
      message = inflate(message, f.encoding, maxBytes);
    }
    if (!parses(schema, message, f.binary)) return false;
    at = end;
  }
  return true;
}

export function createConnectInputCheck(services: readonly DescService[], maxBytes: number) {
  const inputs = new Map<string, DescMessage>();
  for (const service of services) for (const method of service.methods) inputs.set(`/${service.typeName}/${method.name}`, method.input);
  return (method: string, path: string, headers: IncomingHttpHeaders, body: Uint8Array): ConnectInputVerdict => {
    const schema = inputs.get(path);
    const framing = framingOf(headers);
    // Unknown methods, GET and unknown content types: the adapter answers those without parsing.
    if (!schema || method !== "POST" || !framing) return "ok";
    const { encoding } = framing;
    // An encoding the adapter does not offer is refused by it before any parsing.
    if (encoding !== undefined && !["gzip", "br", "identity"].includes(encoding)) return "ok";
    try {
      if (framing.enveloped) return envelopesParse(schema, body, framing, maxBytes) ? "ok" : "invalid";
      const bytes = encoding === undefined || encoding === "identity" ? body : inflate(body, encoding, maxBytes);
      return parses(schema, bytes, framing.binary) ? "ok" : "invalid";
    } catch (err) {
      return err instanceof TooLarge ? "too_large" : "invalid";
    }
  };
}
