import type { Client } from "minio";
import { s3Call, serviceRegion } from "../s3-request.js";

/**
 * CreateBucket in a region, as minio-go's MakeBucket sends it: no body for
 * us-east-1, else a CreateBucketConfiguration with the LocationConstraint.
 * Signed for the client's own region, so a bucket can be made in another
 * region than the one the alias is configured for (the SDK's makeBucket
 * refuses that).
 */
export async function createBucket(client: Client, bucket: string, region: string, options: { readonly objectLocking?: boolean } = {}): Promise<void> {
  const body = region === "" || region === "us-east-1" ? "" : `<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${region}</LocationConstraint></CreateBucketConfiguration>`;
  await s3Call(client, { method: "PUT", bucket, body, region: serviceRegion(), ...(options.objectLocking ? { headers: { "x-amz-bucket-object-lock-enabled": "true" } } : {}) });
}
