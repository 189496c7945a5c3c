import type { Client } from "minio";
import { mcError, s3Code } from "../../core/errors.js";
import { s3Escape, s3Unescape } from "./s3-escape.js";
import { readAll, s3Stream } from "./s3-request.js";
import { unsupportedAnswer, unsupportedError } from "./unsupported.js";
import type { WatchEvent, WatchOptions } from "../watch-event.js";
import { parseXml, rootName, text } from "./xml.js";

const feature = "Listening for bucket notifications (ListenBucketNotification)";
const eventTypes: Readonly<Record<string, string[]>> = {
  put: ["s3:ObjectCreated:*"],
  delete: ["s3:ObjectRemoved:*"],
  get: ["s3:ObjectAccessed:*"],
};

interface Record_ {
  eventTime?: string;
  eventName?: string;
  s3?: { bucket?: { name?: string }; object?: { key?: string; size?: number; userMetadata?: Record<string, string> } };
  source?: { host?: string; port?: string; userAgent?: string };
}

/** Event keys are query-escaped (`+` for a space); a malformed escape is shown as sent. */
function eventKey(raw: string): string {
  try {
    return s3Unescape(raw);
  } catch {
    return raw;
  }
}

/**
 * MinIO's ListenBucketNotification: a GET on the bucket that stays open and
 * streams one JSON document per line. Servers without it answer with an
 * error, or (Ceph) with a plain bucket listing: both mean "not supported".
 */
export async function watchRemote(client: Client, alias: string, bucket: string, options: WatchOptions, onEvent: (e: WatchEvent) => void): Promise<void> {
  // SigV4 signs the query as sent: sorted pairs, RFC 3986 escaping, no empty filters.
  const pairs = [...(options.prefix ? [`prefix=${s3Escape(options.prefix)}`] : []), ...(options.suffix ? [`suffix=${s3Escape(options.suffix)}`] : [])];
  for (const name of options.events) for (const t of eventTypes[name] ?? []) pairs.push(`events=${s3Escape(t)}`);
  let res;
  try {
    res = await s3Stream(client, { method: "GET", bucket, query: pairs.sort().join("&") });
  } catch (err) {
    const code = s3Code(err);
    if (["NotImplemented", "MethodNotAllowed", "InvalidArgument", "InvalidRequest", "XMinioNotImplemented"].includes(code)) throw unsupportedError(feature, code, err);
    // A server that does not know the API may keep one of the repeated `events`
    // parameters and so compute another signature: ask again with a single one.
    const first = pairs.find((p) => p.startsWith("events="));
    if (code !== "SignatureDoesNotMatch" || pairs.filter((p) => p.startsWith("events=")).length < 2 || first === undefined) throw err;
    const probe = await s3Stream(client, { method: "GET", bucket, query: [...pairs.filter((p) => !p.startsWith("events=")), first].sort().join("&") });
    if (!String(probe.headers["content-type"] ?? "").includes("xml")) {
      probe.destroy();
      throw err;
    }
    res = probe;
  }
  const abort = (): void => {
    res.destroy();
  };
  options.signal.addEventListener("abort", abort, { once: true });
  try {
    const type = String(res.headers["content-type"] ?? "");
    if (type.includes("xml")) {
      const doc = parseXml((await readAll(res)).toString("utf8"));
      const root = rootName(doc);
      if (root === "Error") throw unsupportedError(feature, text(doc[root], "Code") || "unknown");
      throw unsupportedAnswer(feature, "the listen request", root === "" ? "an empty body" : `a ${root} document`);
    }
    options.onOpen?.();
    let buffered = "";
    // A character split across two chunks is decoded whole.
    const utf8 = new TextDecoder();
    for await (const chunk of res) {
      buffered += utf8.decode(chunk as Buffer, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line === "") continue;
        const doc = JSON.parse(line) as { Records?: Record_[] };
        for (const r of doc.Records ?? []) {
          onEvent({
            time: r.eventTime ?? new Date().toISOString(),
            size: r.s3?.object?.size ?? 0,
            path: `${alias}/${r.s3?.bucket?.name ?? bucket}/${eventKey(r.s3?.object?.key ?? "")}`,
            // MinIO names events `s3:ObjectCreated:Put` (minio-go's EventType); AWS-style servers `ObjectCreated:Put`.
            type: (r.eventName ?? "").startsWith("s3:") ? (r.eventName ?? "") : `s3:${r.eventName ?? ""}`,
            source: { host: r.source?.host ?? "", port: r.source?.port ?? "", userAgent: r.source?.userAgent ?? "" },
            ...(r.s3?.object?.userMetadata ? { userMetadata: r.s3.object.userMetadata } : {}),
          });
        }
      }
    }
    if (!options.signal.aborted) throw mcError(`The server closed the notification stream of \`${alias}/${bucket}\`.`, undefined, "unavailable");
  } catch (err) {
    if (options.signal.aborted) return;
    throw err;
  } finally {
    options.signal.removeEventListener("abort", abort);
  }
}
