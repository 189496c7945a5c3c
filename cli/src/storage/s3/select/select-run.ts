import type { Writable } from "node:stream";
import type { Client } from "minio";
import { mcError } from "../../../core/errors.js";
import { decodeEventStream } from "./event-stream.js";
import { s3Stream } from "../s3-request.js";
import { selectRequestXml, type SelectSpec } from "./select-request.js";
import { child, parseXml, text } from "../xml.js";

export interface SelectStats {
  readonly bytesScanned: number | null;
  readonly bytesProcessed: number | null;
  readonly bytesReturned: number;
  /** False when the server sent no Stats message (bytesReturned is then what we received). */
  readonly serverStats: boolean;
}

/** Ceph Pacific wraps each Records payload in literal tags and ends every row with the field delimiter. */
const pacificHead = "\n<Payload>\n<Records>\n<Payload>\n";
const pacificTail = "</Payload></Records></Payload>";

function write(out: Writable, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(data, (err) => (err ? reject(err) : undefined))) resolve();
    else out.once("drain", resolve);
  });
}

/**
 * Runs SelectObjectContent and writes the records to `out` as their messages
 * arrive. Error messages and (for servers that report them inside a record,
 * like Ceph) parse failures become errors; a stream without its End message
 * is an error unless the server is one that never sends it.
 */
export async function runSelect(client: Client, bucket: string, key: string, url: string, spec: SelectSpec, out: Writable, sseHeaders: Readonly<Record<string, string>> = {}): Promise<SelectStats> {
  const body = selectRequestXml(spec);
  const res = await s3Stream(client, { method: "POST", bucket, key, query: "select&select-type=2", body, headers: { ...sseHeaders, "Content-Type": "application/xml" } }).catch((err: unknown) => {
    // Ceph answers a select on an SSE-C object without its key with bytes that are not HTTP.
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("HPE_")) {
      throw mcError(`Unable to run the SQL query on \`${url}\`.`, new Error(`The server's answer was not valid HTTP (${(err as Error).message}); for an object encrypted with a customer key, pass it with --enc-c`));
    }
    throw mcError(`Unable to run the SQL query on \`${url}\`.`, err);
  });
  return writeSelectResults(res, url, spec, out);
}

/** Decodes a SelectObjectContent response and writes its records; the statistics come back. */
export async function writeSelectResults(response: AsyncIterable<unknown> | Iterable<unknown>, url: string, spec: SelectSpec, out: Writable): Promise<SelectStats> {
  let stats: SelectStats | undefined;
  let returned = 0;
  let ended = false;
  let pacific = false;
  for await (const msg of decodeEventStream(response)) {
    const type = msg.headers[":message-type"];
    if (type === "error") {
      const code = msg.headers[":error-code"] ?? "SelectError";
      throw mcError(`Unable to run the SQL query on \`${url}\`.`, { code, message: msg.headers[":error-message"] ?? code });
    }
    const event = msg.headers[":event-type"];
    if (event === "Records") {
      let payload = msg.payload.toString("utf8");
      if (payload.startsWith(pacificHead)) {
        pacific = true;
        payload = pacificRows(payload, url, spec);
      }
      returned += Buffer.byteLength(payload);
      await write(out, payload);
    } else if (event === "Stats") {
      const s = child(parseXml(msg.payload.toString("utf8")), "Stats");
      const num = (name: string): number | null => (text(s, name) === "" ? null : Number(text(s, name)));
      stats = { bytesScanned: num("BytesScanned"), bytesProcessed: num("BytesProcessed"), bytesReturned: num("BytesReturned") ?? returned, serverStats: true };
    } else if (event === "End") {
      ended = true;
    }
    // Progress and Cont (keep-alive) messages carry nothing to print.
  }
  if (!ended && !pacific) throw mcError(`Unable to run the SQL query on \`${url}\`.`, new Error("The response ended before its End message"), "bad_gateway");
  return stats ?? { bytesScanned: null, bytesProcessed: null, bytesReturned: returned, serverStats: false };
}

/** Unwraps a Ceph Pacific payload: parse failures come as text, and every row ends in a field delimiter. */
function pacificRows(wrapped: string, url: string, spec: SelectSpec): string {
  const payload = wrapped.slice(pacificHead.length).replace(new RegExp(`${pacificTail}$`), "");
  const failure = /^failure -->(.*)<---\s*$/s.exec(payload);
  if (failure) {
    throw mcError(`Unable to run the SQL query on \`${url}\`.`, new Error(`The server could not parse the query near \`${(failure[1] ?? "").trim()}\` (this server's dialect reads \`from stdin\`)`), "invalid_argument");
  }
  const fd = spec.output["fd"] ?? ",";
  return payload
    .split("\n")
    .filter((row) => row !== "")
    .map((row) => `${row.endsWith(fd) ? row.slice(0, -fd.length) : row}${spec.output["rd"] ?? "\n"}`)
    .join("");
}
