import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { startRecordingS3, type RecordingS3 } from "../mc/recording-s3.js";

/** A ListenBucketNotification request as the server saw it. */
export interface Listen {
  readonly bucket: string;
  /** The raw query string. */
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
}

export interface MinioLike {
  /** `127.0.0.1:PORT` */
  readonly host: string;
  /** `MC_HOST_<alias>` value. */
  readonly hostUrl: string;
  /** The in-memory S3 behind it (objects, requests). */
  readonly s3: RecordingS3;
  readonly listens: Listen[];
  /** Sends `{"Records":[…]}` and a newline to every open listener of the bucket. */
  emit(bucket: string, records: readonly unknown[]): void;
  /** Open listen streams of a bucket. */
  listening(bucket: string): number;
  close(): Promise<void>;
}

/**
 * The parts of a MinIO server mc's MinIO-only watchers need: the in-memory
 * S3 of tests/mc/recording-s3.ts for objects, and MinIO's
 * ListenBucketNotification (a GET on the bucket with `events=`) as a stream
 * held open, fed by the test (records shaped by minio-go's notification
 * types). Everything stays on loopback; signatures are not checked.
 */
export async function startMinioLike(): Promise<MinioLike> {
  const s3 = await startRecordingS3();
  const backend = new URL(s3.endpoint);
  const listens: Listen[] = [];
  const open = new Map<string, Set<ServerResponse>>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://minio-like");
    const bucket = decodeURIComponent(url.pathname.slice(1).split("/")[0] ?? "");
    if (req.method === "GET" && url.searchParams.has("events") && /^\/[^/]+\/?$/.test(url.pathname)) {
      req.resume();
      listens.push({ bucket, query: url.search.slice(1), headers: req.headers });
      res.writeHead(200, { "content-type": "application/json", server: "MinIO" });
      res.write(" ");
      const set = open.get(bucket) ?? new Set<ServerResponse>();
      set.add(res);
      open.set(bucket, set);
      res.once("close", () => set.delete(res));
      return;
    }
    const fwd = request({ hostname: backend.hostname, port: backend.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, { ...up.headers, server: "MinIO" });
      up.pipe(res);
    });
    fwd.once("error", () => res.destroy());
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    host: `127.0.0.1:${port}`,
    hostUrl: `http://MINIOACCESS:MINIOSECRET123@127.0.0.1:${port}`,
    s3,
    listens,
    emit(bucket, records) {
      for (const res of open.get(bucket) ?? []) res.write(`${JSON.stringify({ Records: records })}\n`);
    },
    listening: (bucket) => open.get(bucket)?.size ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await s3.close();
    },
  };
}
