import type { Client } from "minio";
import { s3Code } from "../../../core/errors.js";
import { s3Call } from "../s3-request.js";
import { unsupportedAnswer, unsupportedError } from "../unsupported.js";
import { child, escapeXml, parseXml, rootName, text } from "../xml.js";

export const encryptionFeature = "Bucket encryption configuration";

export interface BucketEncryption {
  /** "AES256" (SSE-S3) or "aws:kms" (SSE-KMS); "" when none is set. */
  readonly algorithm: string;
  readonly keyId: string;
}

/**
 * Reads the configuration. Some servers (Ceph Pacific) do not know
 * `?encryption` and answer the request as a bucket listing, or worse treat a
 * DELETE as DeleteBucket: anything but the configuration or its
 * "not found" error means the feature is missing.
 */
export async function getBucketEncryption(client: Client, bucket: string): Promise<BucketEncryption> {
  let body: string;
  try {
    body = (await s3Call(client, { method: "GET", bucket, query: "encryption" })).body.toString("utf8");
  } catch (err) {
    const code = s3Code(err);
    if (code === "ServerSideEncryptionConfigurationNotFoundError") return { algorithm: "", keyId: "" };
    if (["NotImplemented", "InvalidArgument", "MethodNotAllowed", "InvalidRequest"].includes(code)) throw unsupportedError(encryptionFeature, code, err);
    throw err;
  }
  const doc = parseXml(body);
  const root = rootName(doc);
  if (root !== "ServerSideEncryptionConfiguration") throw unsupportedAnswer(encryptionFeature, "GET ?encryption", root === "" ? "an empty body" : `a ${root} document`);
  const rule = child(child(doc[root], "Rule"), "ApplyServerSideEncryptionByDefault");
  return { algorithm: text(rule, "SSEAlgorithm"), keyId: text(rule, "KMSMasterKeyID") };
}

export async function setBucketEncryption(client: Client, bucket: string, algorithm: "AES256" | "aws:kms", keyId: string): Promise<void> {
  const key = algorithm === "aws:kms" && keyId !== "" ? `<KMSMasterKeyID>${escapeXml(keyId)}</KMSMasterKeyID>` : "";
  const body = `<ServerSideEncryptionConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>${algorithm}</SSEAlgorithm>${key}</ApplyServerSideEncryptionByDefault></Rule></ServerSideEncryptionConfiguration>`;
  try {
    await s3Call(client, { method: "PUT", bucket, query: "encryption", body, headers: { "Content-Type": "application/xml" } });
  } catch (err) {
    const code = s3Code(err);
    if (!["NotImplemented", "InvalidArgument", "MethodNotAllowed", "InvalidRequest", "MalformedXML"].includes(code)) throw err;
    // InvalidArgument may also be a bad key on a server that has the feature: ask it.
    const supported = await getBucketEncryption(client, bucket).then(
      () => true,
      () => false,
    );
    if (supported) throw err;
    throw unsupportedError(encryptionFeature, code, err);
  }
}

/** Removes the configuration, after checking the server knows it (see getBucketEncryption). */
export async function clearBucketEncryption(client: Client, bucket: string): Promise<void> {
  await getBucketEncryption(client, bucket);
  await s3Call(client, { method: "DELETE", bucket, query: "encryption", expect: [200, 204] });
}
