import { createServer, type IncomingMessage } from "node:http";

export interface FakeAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface FakeS3 {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  /** `METHOD path?query` of every request, in order. */
  readonly seen: string[];
  close(): Promise<void>;
}

const noSuchKey = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message></Message></Error>`;

/**
 * An S3 endpoint that answers from a table, for response headers and
 * documents Ceph RGW never sends (checksums, restore, replication): `answer`
 * gets the method and the raw path with its query; undefined is NoSuchKey.
 * Signatures are not checked.
 */
export async function startFakeS3(answer: (method: string, url: URL, req: IncomingMessage) => FakeAnswer | undefined): Promise<FakeS3> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      seen.push(`${req.method ?? ""} ${req.url ?? ""}`);
      const a = answer(req.method ?? "GET", url, req) ?? { status: 404, headers: { "content-type": "application/xml" }, body: noSuchKey };
      const body = req.method === "HEAD" ? "" : (a.body ?? "");
      res.writeHead(a.status ?? 200, { "content-length": String(Buffer.byteLength(a.body ?? "")), ...a.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
