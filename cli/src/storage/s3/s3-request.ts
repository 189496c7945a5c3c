import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Client } from "minio";

export interface S3Request {
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "HEAD";
  readonly bucket?: string;
  readonly key?: string;
  readonly query?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Status codes that are not errors (default 200). */
  readonly expect?: readonly number[];
  /** Sign for this region instead of looking up the bucket's (which needs the bucket to exist). */
  readonly region?: string;
}

export interface S3Response {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** The region for requests without a bucket (the SDK would otherwise look one up through a bucket). */
export const serviceRegion = (): string => process.env["MC_REGION"] ?? "us-east-1";

/**
 * One signed request through the SDK, for the S3 calls it lacks or parses
 * lossily; the response stays a stream. Errors are the SDK's (with S3 `code`).
 */
export function s3Stream(client: Client, req: S3Request): Promise<IncomingMessage> {
  const options = {
    method: req.method,
    ...(req.bucket ? { bucketName: req.bucket } : {}),
    ...(req.key ? { objectName: req.key } : {}),
    ...(req.query ? { query: req.query } : {}),
    headers: { ...req.headers },
  };
  return client.makeRequestAsync(options, req.body ?? "", [...(req.expect ?? [200])], req.region ?? (req.bucket ? "" : serviceRegion()));
}

export async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(parts);
}

/** One signed request with the whole response body read. */
export async function s3Call(client: Client, req: S3Request): Promise<S3Response> {
  const res = await s3Stream(client, req);
  const body = req.method === "HEAD" ? Buffer.alloc(0) : await readAll(res);
  if (req.method === "HEAD") res.resume();
  return { status: res.statusCode ?? 0, headers: res.headers, body };
}
