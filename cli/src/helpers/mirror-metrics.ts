import { createServer, type Server } from "node:http";
import { mcError } from "../core/errors.js";

/**
 * `mirror --monitoring-address HOST:PORT`: mirror's counters at
 * `http://HOST:PORT/metrics` in the Prometheus text format, with upstream's
 * names and help (cmd/mirror-main.go: mc_mirror_total_s3ops,
 * mc_mirror_total_s3uploaded_bytes, mc_mirror_failed_s3ops,
 * mc_mirror_total_restarts and the mc_mirror_replication_duration histogram
 * of milliseconds per object size class, buckets 1, 20, 400, 8000, 160000).
 */
export interface MirrorMetrics {
  /** One mirror operation (a copy or a removal) ended; `failed` when it did not succeed. */
  op(failed: boolean): void;
  /** A copy succeeded: its bytes and how long it took. */
  copied(bytes: number, ms: number): void;
  close(): Promise<void>;
}

const buckets = [1, 20, 400, 8000, 160000];

/** upstream convertSizeToTag. */
export function sizeTag(size: number): string {
  if (size < 1024) return "LESS_THAN_1_KiB";
  if (size < 1024 * 1024) return "LESS_THAN_1_MiB";
  if (size < 10 * 1024 * 1024) return "LESS_THAN_10_MiB";
  if (size < 100 * 1024 * 1024) return "LESS_THAN_100_MiB";
  if (size < 1024 * 1024 * 1024) return "LESS_THAN_1_GiB";
  return "GREATER_THAN_1_GiB";
}

/** `HOST:PORT` (`:PORT` means every interface, as Go's ListenAndServe). */
function parseAddress(address: string): { host: string | undefined; port: number } {
  const m = /^(\[[^\]]+\]|[^:]*):(\d{1,5})$/.exec(address);
  const port = Number(m?.[2] ?? "");
  if (!m || port > 65535) throw mcError("Unable to setup monitoring endpoint.", new Error(`\`${address}\` is not HOST:PORT`), "invalid_argument");
  const host = (m[1] ?? "").replace(/^\[|\]$/g, "");
  return { host: host === "" ? undefined : host, port };
}

export async function startMirrorMetrics(address: string): Promise<MirrorMetrics> {
  const { host, port } = parseAddress(address);
  let ops = 0;
  let failed = 0;
  let uploaded = 0;
  const histograms = new Map<string, { counts: number[]; sum: number; count: number }>();
  const text = (): string => {
    const lines: string[] = [];
    const counter = (name: string, help: string, value: number): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`, `${name} ${value}`);
    };
    counter("mc_mirror_failed_s3ops", "The total number of failed mirror operations", failed);
    lines.push("# HELP mc_mirror_replication_duration Histogram of replication time in ms per object sizes", "# TYPE mc_mirror_replication_duration histogram");
    for (const [tag, h] of [...histograms.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      buckets.forEach((le, i) => lines.push(`mc_mirror_replication_duration_bucket{object_size="${tag}",le="${le}"} ${h.counts[i] ?? 0}`));
      lines.push(`mc_mirror_replication_duration_bucket{object_size="${tag}",le="+Inf"} ${h.count}`, `mc_mirror_replication_duration_sum{object_size="${tag}"} ${h.sum}`, `mc_mirror_replication_duration_count{object_size="${tag}"} ${h.count}`);
    }
    // A mirror restarts only when a watch session fails; ours ends instead, so this stays 0.
    counter("mc_mirror_total_restarts", "The number of mirror restarts", 0);
    counter("mc_mirror_total_s3ops", "The total number of mirror operations", ops);
    counter("mc_mirror_total_s3uploaded_bytes", "The total number of bytes uploaded", uploaded);
    return `${lines.join("\n")}\n`;
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found\n");
      return;
    }
    const body = text();
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8", "content-length": String(Buffer.byteLength(body)) }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err) => reject(mcError("Unable to setup monitoring endpoint.", err, "unavailable")));
    server.listen(port, host, resolve);
  });
  return {
    op(f) {
      ops++;
      if (f) failed++;
    },
    copied(bytes, ms) {
      uploaded += bytes;
      const h = histograms.get(sizeTag(bytes)) ?? { counts: buckets.map(() => 0), sum: 0, count: 0 };
      buckets.forEach((le, i) => {
        if (ms <= le) h.counts[i] = (h.counts[i] ?? 0) + 1;
      });
      h.sum += ms;
      h.count++;
      histograms.set(sizeTag(bytes), h);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
