import { resolve } from "node:path";
import { AppError } from "@mc/shared/errors";
import type { ReleaseStore } from "../domain/release-store.js";
import { createFsReleaseStore } from "./fs-release-store.js";
import { createS3ReleaseStore } from "./s3-release-store.js";

/**
 * The store a `--store` value names: a directory, or `s3://bucket[/prefix]`
 * with the endpoint and keys from RELEASES_S3_ENDPOINT, RELEASES_S3_ACCESS_KEY,
 * RELEASES_S3_SECRET_KEY and RELEASES_S3_REGION (default us-east-1).
 */
export async function openReleaseStore(spec: string, env: NodeJS.ProcessEnv): Promise<ReleaseStore> {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*?))?\/?$/.exec(spec);
  if (!spec.startsWith("s3://")) return createFsReleaseStore(resolve(spec));
  if (!m?.[1]) throw new AppError("invalid_argument", `--store ${spec}: want s3://bucket[/prefix]`);
  const need = (name: string): string => {
    const value = env[name];
    if (!value) throw new AppError("invalid_argument", `--store ${spec} needs ${name}`);
    return value;
  };
  return createS3ReleaseStore({
    endpoint: need("RELEASES_S3_ENDPOINT"),
    bucket: m[1],
    prefix: m[2] ?? "",
    accessKey: need("RELEASES_S3_ACCESS_KEY"),
    secretKey: need("RELEASES_S3_SECRET_KEY"),
    region: env.RELEASES_S3_REGION ?? "us-east-1",
  });
}
