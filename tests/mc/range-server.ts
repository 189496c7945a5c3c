// A loopback S3 stand-in holding one multipart object, answering HEAD and
// ranged GETs as RGW does, with a hook to misbehave on any GET: cut a body,
// stall, answer chunked or whole, add bytes. It counts connections, and
// GETs by path: the SDK's (node:http with a keep-alive agent, which sends
// `Connection: keep-alive`) and range-connection.ts's (which sends none).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RangeAsked {
  readonly start: number;
  readonly end: number;
  /** 1 for the first GET of the object. */
  readonly n: number;
}

export interface RangeServer {
  readonly endpoint: string;
  /** For MC_HOST_x. */
  readonly host: string;
  readonly bytes: Buffer;
  readonly etag: string;
  connections: number;
  /** GETs of the object so far (RangeAsked.n counts from here). */
  gets: number;
  sdkGets: number;
  rawGets: number;
  /** Return true when it answered (or chose not to); false for the normal answer. */
  misbehave: (asked: RangeAsked, req: IncomingMessage, res: ServerResponse) => boolean;
  /** The normal 206 for a range. */
  answer(res: ServerResponse, start: number, end: number): void;
  close(): Promise<void>;
}

export async function startRangeServer(bytes: Buffer, bucket = "bucket", key = "big.bin"): Promise<RangeServer> {
  const etag = "0123456789abcdef0123456789abcdef-9";
  const path = `/${bucket}/${key}`;
  const headers = { etag: `"${etag}"`, "last-modified": new Date(0).toUTCString(), "content-type": "application/octet-stream", "accept-ranges": "bytes" };
  const self: RangeServer = {
    endpoint: "",
    host: "",
    bytes,
    etag,
    connections: 0,
    gets: 0,
    sdkGets: 0,
    rawGets: 0,
    misbehave: () => false,
    answer(res, start, end) {
      res.writeHead(206, { ...headers, "content-length": String(end - start + 1), "content-range": `bytes ${start}-${end}/${bytes.length}` });
      res.end(bytes.subarray(start, end + 1));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === `/${bucket}` || url.pathname === `/${bucket}/`) {
      res.writeHead(200, { "content-type": "application/xml", "content-length": "0" }).end();
      return;
    }
    if (decodeURIComponent(url.pathname) !== path) {
      res.writeHead(404, { "content-type": "application/xml" }).end(req.method === "HEAD" ? undefined : "<Error><Code>NoSuchKey</Code></Error>");
      return;
    }
    if (req.method === "HEAD") {
      res.writeHead(200, { ...headers, "content-length": String(bytes.length) }).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ""));
    if (req.method !== "GET" || !m) {
      res.writeHead(400).end();
      return;
    }
    if (/keep-alive/i.test(String(req.headers.connection ?? ""))) self.sdkGets++;
    else self.rawGets++;
    const asked = { start: Number(m[1]), end: Math.min(Number(m[2]), bytes.length - 1), n: ++self.gets };
    if (req.headers["if-match"] !== `"${etag}"`) {
      res.writeHead(412, { "content-type": "application/xml" }).end("<Error><Code>PreconditionFailed</Code></Error>");
      return;
    }
    if (!self.misbehave(asked, req, res)) self.answer(res, asked.start, asked.end);
  });
  server.on("connection", () => self.connections++);
  // A kept-alive socket must not hold the server open after the test.
  server.keepAliveTimeout = 2000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(self, { endpoint: `http://127.0.0.1:${port}`, host: `http://RANGEKEY:RANGESECRET@127.0.0.1:${port}` });
  const close = self.close;
  self.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return self;
}
