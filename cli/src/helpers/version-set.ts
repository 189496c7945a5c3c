import type { McContext } from "../runtime/context.js";
import { featureError } from "../storage/s3/versions/versions-errors.js";
import { requireBucketOnly, s3Target } from "../storage/s3/versions-target.js";

/** The JSON of contracts/mc.md §5 and upstream's text for `version enable|suspend|info`. */
export function printVersioning(ctx: McContext, op: "enable" | "suspend" | "info", url: string, status: string, mfaDelete: string): void {
  const text = status === "" ? `${url} is un-versioned` : `${url} versioning is ${status.toLowerCase()}`;
  ctx.output.result({ Op: op, status: "success", url, versioning: { status, MFADelete: mfaDelete } }, text);
}

/** `version enable|suspend`: sets the bucket's versioning state. */
export async function setVersioning(ctx: McContext, arg: string | undefined, op: "enable" | "suspend"): Promise<void> {
  const t = s3Target(ctx, arg, `version ${op}`);
  requireBucketOnly(t, `version ${op}`);
  const status = op === "enable" ? "Enabled" : "Suspended";
  try {
    await t.client.setBucketVersioning(t.bucket, { Status: status });
  } catch (err) {
    throw featureError(`${op} versioning on \`${t.url}\``, "bucket versioning", err);
  }
  printVersioning(ctx, op, t.url, status, "");
}
