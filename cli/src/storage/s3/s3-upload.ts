import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type { Client } from "minio";
import { mcError } from "../../core/errors.js";
import { s3Call } from "./s3-request.js";
import type { WriteOptions } from "../types.js";
import { chunks, createPartBuffers } from "./chunks.js";
import { withRetry } from "./retry.js";
import { checksumHeader, checksumOf, createChecksummer } from "./checksum.js";
import { completeWithChecksums, type CompletedPart } from "./s3-complete.js";

export interface UploadSettings {
  /** Bytes per part (16 MiB default, MC_UPLOAD_MULTIPART_SIZE / put --part-size). */
  readonly partSize: number;
  /** Parts in flight per object (4 default, MC_UPLOAD_MULTIPART_THREADS / put -P). */
  readonly parallel: number;
}

const md5 = (data: Buffer): Buffer => createHash("md5").update(data).digest();

/** The server refused a part for want of Content-MD5. */
function needsMd5(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return /content-md5/i.test(String(e.message ?? "")) && ["InvalidRequest", "InvalidArgument", "MissingContentMD5"].includes(String(e.code ?? ""));
}

function aborted(signal: AbortSignal | undefined): Error {
  return Object.assign(new Error("Operation aborted"), { name: "AbortError", cause: signal?.reason });
}

function headersOf(options: WriteOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.contentType) headers["Content-Type"] = options.contentType;
  for (const [k, v] of Object.entries(options.metadata ?? {})) headers[/^x-amz-meta-/i.test(k) ? k : `X-Amz-Meta-${k}`] = v;
  return { ...headers, ...options.headers, ...options.encryption?.headers };
}

/**
 * One PUT. The SDK's putObject renames every header it does not know
 * (X-Amz-Tagging, Expires) into user metadata, so user headers go out as a
 * plain signed request, with Content-MD5 for the server to check.
 */
async function putSingle(client: Client, bucket: string, key: string, body: Buffer, headers: Record<string, string>, raw: boolean): Promise<{ etag: string }> {
  if (!raw) return client.putObject(bucket, key, body, body.length, headers);
  const res = await s3Call(client, { method: "PUT", bucket, key, body, headers: { ...headers, "Content-MD5": md5(body).toString("base64") } });
  const etag = res.headers.etag;
  return { etag: (Array.isArray(etag) ? (etag[0] ?? "") : (etag ?? "")).replace(/"/g, "") };
}

/**
 * Streams `source` into an object. Under one part: a single PUT whose ETag must
 * equal the MD5 we computed. Otherwise a multipart upload with `parallel` parts
 * in flight (memory: parallel + 1 parts), each part checked by the server
 * (its signed SHA-256 over HTTP, Content-MD5 over HTTPS) and retried with backoff; any failure or abort (Ctrl-C) aborts the upload so no
 * object and no incomplete upload is left.
 */
export async function uploadToS3(client: Client, bucket: string, key: string, source: Readable, settings: UploadSettings, options: WriteOptions = {}): Promise<void> {
  const { signal } = options;
  const headers = headersOf(options);
  const buffers = createPartBuffers();
  const parts = chunks(source, settings.partSize, buffers);
  const first = await parts.next();
  const firstPart = first.done ? Buffer.alloc(0) : first.value;
  if (signal?.aborted) throw aborted(signal);
  const second = firstPart.length < settings.partSize ? { done: true as const, value: undefined } : await parts.next();
  const algorithm = options.checksum;
  // A conditional write (put --if-not-exists) is decided when the object appears: on the PUT, or on the completion.
  const ifNoneMatch = headers["If-None-Match"];
  if (second.done) {
    // The whole source is read: a short or changed one is refused before it can become an object.
    options.verify?.();
    const digest = md5(firstPart).toString("hex");
    if (algorithm) headers[checksumHeader(algorithm)] = checksumOf(algorithm, firstPart);
    const raw = options.headers !== undefined || algorithm !== undefined;
    const res = await withRetry(() => putSingle(client, bucket, key, firstPart, headers, raw), signal ? { signal } : {});
    // An encrypted object's ETag need not be the MD5 of the plaintext.
    if (!options.encryption && res.etag && /^[0-9a-f]{32}$/.test(res.etag) && res.etag !== digest) {
      await client.removeObject(bucket, key).catch(() => undefined);
      throw mcError(`Integrity check failed for \`${key}\`.`, new Error(`ETag ${res.etag} does not match MD5 ${digest}`), "internal");
    }
    options.onProgress?.(firstPart.length);
    return;
  }

  delete headers["If-None-Match"];
  // Servers that ignore the condition on CompleteMultipartUpload (Ceph RGW) would overwrite: ask first as well.
  if (ifNoneMatch === "*" && (await objectExists(client, bucket, key))) throw preconditionFailed(bucket, key);
  if (algorithm) {
    headers["x-amz-checksum-algorithm"] = algorithm;
    if (algorithm === "CRC64NVME") headers["x-amz-checksum-type"] = "FULL_OBJECT";
  }
  // CRC-64/NVME is a full-object checksum: the whole object's value too (parts arrive here in order).
  const whole = algorithm === "CRC64NVME" ? createChecksummer(algorithm) : undefined;
  const uploadId = await withRetry(() => client.initiateNewMultipartUpload(bucket, key, headers));
  const done: (CompletedPart & { md5: Buffer | undefined })[] = [];
  const inflight = new Set<Promise<void>>();
  let failure: unknown;
  let sent = 0;
  // Over plain HTTP the SDK signs each part's SHA-256 and the server checks it: the part is
  // verified without an MD5 of our own (the costliest hash here, as aws-cli and minio-go skip it).
  // Over HTTPS the payload is unsigned: Content-MD5 is then our end-to-end check.
  let withMd5 = !client.enableSHA256;
  const put = (part: number, data: Buffer, sum: Record<string, string>, digest: Buffer | undefined) =>
    withRetry(
      () => client.uploadPart({ bucketName: bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: { ...options.encryption?.partHeaders, ...sum, "Content-Length": String(data.length), ...(digest ? { "Content-MD5": digest.toString("base64") } : {}) } }, data),
      signal ? { signal } : {},
    );
  const send = (part: number, data: Buffer): void => {
    whole?.update(data);
    const sum = algorithm ? { [checksumHeader(algorithm)]: checksumOf(algorithm, data) } : {};
    const digest = withMd5 ? md5(data) : undefined;
    const task = put(part, data, sum, digest)
      .catch(async (err: unknown) => {
        // A server that insists on Content-MD5 (object-lock rules of some S3 servers) gets it from now on.
        if (digest !== undefined || !needsMd5(err)) throw err;
        withMd5 = true;
        const again = md5(data);
        return { ...(await put(part, data, sum, again)), again };
      })
      .then(
        (res: { etag: string; again?: Buffer }) => {
          done.push({ part, etag: res.etag, md5: res.again ?? digest, ...(algorithm ? { checksum: sum[checksumHeader(algorithm)] ?? "" } : {}) });
          sent += data.length;
          options.onProgress?.(sent);
          // Sent and digested: the next part may fill this buffer.
          buffers.release(data);
        },
        (err: unknown) => {
          failure ??= err;
        },
      );
    const tracked = task.finally(() => inflight.delete(tracked));
    inflight.add(tracked);
  };
  try {
    let number = 1;
    send(number++, firstPart);
    send(number++, second.value);
    for await (const data of parts) {
      while (inflight.size >= settings.parallel && failure === undefined && !signal?.aborted) await Promise.race(inflight);
      if (failure !== undefined) throw failure;
      if (signal?.aborted) throw aborted(signal);
      if (number > 10000) throw mcError(`Object \`${key}\` needs more than 10000 parts; use a larger part size.`, undefined, "invalid_argument");
      send(number++, data);
    }
    await Promise.all(inflight);
    if (failure !== undefined) throw failure;
    if (signal?.aborted) throw aborted(signal);
    // Every byte is sent but nothing is visible yet: a source that ended short (a file truncated
    // while it was read) is refused here, and the upload aborted, instead of completing into an object.
    options.verify?.();
    done.sort((a, b) => a.part - b.part);
    if (algorithm || ifNoneMatch) {
      const value = whole?.value() ?? "";
      await withRetry(() => completeWithChecksums(client, bucket, key, uploadId, done, { ...(algorithm ? { algorithm, whole: value } : {}), ...(ifNoneMatch ? { ifNoneMatch } : {}) }));
    } else await withRetry(() => client.completeMultipartUpload(bucket, key, uploadId, done.map(({ part, etag }) => ({ part, etag }))));
  } catch (err) {
    await Promise.allSettled(inflight);
    await withRetry(() => client.abortMultipartUpload(bucket, key, uploadId)).catch(() => undefined);
    throw err;
  }
  // RGW answers CompleteMultipartUpload with an empty ETag: check the stored one with a HEAD.
  if (options.encryption) return;
  const digests = done.map((d) => d.md5);
  // Parts whose SHA-256 the server checked have no MD5 of ours: nothing to compare.
  if (!digests.every((d): d is Buffer => d !== undefined)) return;
  const expected = `${md5(Buffer.concat(digests)).toString("hex")}-${done.length}`;
  const stored = await client.statObject(bucket, key);
  if (/^[0-9a-f]{32}-\d+$/.test(stored.etag) && stored.etag !== expected) {
    throw mcError(`Integrity check failed for \`${key}\`.`, new Error(`ETag ${stored.etag} does not match ${expected}`), "internal");
  }
}

async function objectExists(client: Client, bucket: string, key: string): Promise<boolean> {
  const res = await s3Call(client, { method: "HEAD", bucket, key, expect: [200, 404] });
  return res.status === 200;
}

function preconditionFailed(bucket: string, key: string): Error {
  return Object.assign(new Error("At least one of the pre-conditions you specified did not hold"), { code: "PreconditionFailed", bucketname: bucket, key });
}
