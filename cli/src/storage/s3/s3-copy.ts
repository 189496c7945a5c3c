import type { Client } from "minio";
import { s3Call } from "./s3-request.js";
import { child, parseXml, text } from "./xml.js";

/**
 * A server-side CopyObject. `source` is the finished `x-amz-copy-source`
 * value (copySource()): the SDK's copyObject escapes whatever it is given,
 * so an escaped source would be escaped twice and name another key.
 */
export async function copyObject(client: Client, source: string, bucket: string, key: string): Promise<void> {
  const res = await s3Call(client, { method: "PUT", bucket, key, headers: { "x-amz-copy-source": source } });
  // S3 may answer 200 and put the error in the body when a long copy fails.
  const doc = parseXml(res.body.toString("utf8"));
  const error = child(doc, "Error");
  if (text(error, "Code") !== "") {
    throw Object.assign(new Error(text(error, "Message") || text(error, "Code")), { code: text(error, "Code"), key, bucketname: bucket });
  }
}
