import type { AdminClient } from "./admin-client.js";

/** madmin v3's ReplicationMRF: a version whose replication failed and waits for retry. */
export interface ReplicationMrf {
  readonly nodeName?: string;
  readonly bucket?: string;
  readonly object?: string;
  readonly versionId?: string;
  readonly retryCount?: number;
  readonly error?: string;
}

/** madmin's DiffInfo (`replicate backlog --full`). */
export interface DiffInfo {
  readonly object?: string;
  readonly versionId?: string;
  readonly targets?: Record<string, { readonly rStatus?: string; readonly drStatus?: string }>;
  readonly rStatus?: string;
  readonly dStatus?: string;
  readonly replTimestamp?: string;
  readonly lastModified?: string;
  readonly deletemarker?: boolean;
  readonly error?: unknown;
}

/** A stream of JSON values, one after another (Go's json.Encoder output), read whole. */
function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") {
      if (depth++ === 0) start = i;
    } else if (c === "}" && --depth === 0) {
      out.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  if (depth !== 0 || inString) throw new Error("the answer ends inside a record");
  return out;
}

/** GET /replication/mrf?bucket=B&node=N (madmin v3 BucketReplicationMRF, not in v2.0.7). */
export async function replicationMrf(client: AdminClient, bucket: string, node: string): Promise<ReplicationMrf[]> {
  const res = await client.request({ method: "GET", path: "/replication/mrf", query: { bucket, node } });
  return jsonValues(res.body.toString("utf8")) as ReplicationMrf[];
}

/** POST /replication/diff?bucket=B[&verbose=true][&arn=A][&prefix=P] (madmin BucketReplicationDiff). */
export async function replicationDiff(client: AdminClient, bucket: string, opts: { verbose: boolean; arn: string; prefix: string }): Promise<DiffInfo[]> {
  const query: Record<string, string> = { bucket };
  if (opts.verbose) query["verbose"] = "true";
  if (opts.arn) query["arn"] = opts.arn;
  if (opts.prefix) query["prefix"] = opts.prefix;
  const res = await client.request({ method: "POST", path: "/replication/diff", query });
  return jsonValues(res.body.toString("utf8")) as DiffInfo[];
}
