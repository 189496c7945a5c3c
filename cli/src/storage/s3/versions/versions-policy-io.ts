import { s3Code } from "../../../core/errors.js";
import { parsePolicy, type Policy } from "./versions-policy.js";
import type { S3Target } from "../versions-target.js";

/** The bucket policy as the server stores it; "" when the bucket has none. */
export async function readPolicyText(t: S3Target): Promise<string> {
  try {
    return await t.client.getBucketPolicy(t.bucket);
  } catch (err) {
    if (s3Code(err) === "NoSuchBucketPolicy") return "";
    throw err;
  }
}

/** The bucket policy; a bucket without one has an empty policy. */
export async function readPolicy(t: S3Target): Promise<Policy> {
  return parsePolicy(await readPolicyText(t));
}

/**
 * Stores the policy, or deletes it when undefined. Direct requests: the SDK
 * accepts only 204 for both, and RGW answers a policy DELETE with 200.
 */
export async function writePolicy(t: S3Target, policy: Policy | string | undefined): Promise<void> {
  const body = policy === undefined ? "" : typeof policy === "string" ? policy : JSON.stringify(policy);
  const res = await t.client.makeRequestAsync({ method: body === "" ? "DELETE" : "PUT", bucketName: t.bucket, query: "policy" }, body, [200, 204]);
  res.resume();
}
