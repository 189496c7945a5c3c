import { createHash } from "node:crypto";
import type { McContext } from "../runtime/context.js";
import { s3Call } from "../storage/s3/s3-request.js";
import { featureError } from "../storage/s3/versions/versions-errors.js";
import { requireBucketOnly, s3Target } from "../storage/s3/versions-target.js";

/** The JSON of contracts/mc.md §5 and upstream's text for `version enable|suspend|info`. */
export function printVersioning(ctx: McContext, op: "enable" | "suspend" | "info", url: string, status: string, mfaDelete: string): void {
  const text = status === "" ? `${url} is un-versioned` : `${url} versioning is ${status.toLowerCase()}`;
  ctx.output.result({ Op: op, status: "success", url, versioning: { status, MFADelete: mfaDelete } }, text);
}

/** MinIO's versioning extensions (`version enable --excluded-prefixes/--exclude-folders`). */
export interface VersioningExclusions {
  readonly prefixes: readonly string[];
  readonly folders: boolean;
}

const xmlText = (s: string): string => s.replace(/[&<>"'\t\n\r]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;", "\t": "&#x9;", "\n": "&#xA;", "\r": "&#xD;" })[c] ?? c);

/** minio-go's BucketVersioningConfiguration as Go's encoding/xml writes it, MinIO's exclusions included. */
export function versioningXml(status: string, ex: VersioningExclusions): string {
  const prefixes = ex.prefixes.map((p) => `<ExcludedPrefixes><Prefix>${xmlText(p)}</Prefix></ExcludedPrefixes>`).join("");
  return `<VersioningConfiguration><Status>${status}</Status>${prefixes}${ex.folders ? "<ExcludeFolders>true</ExcludeFolders>" : ""}</VersioningConfiguration>`;
}

/** `version enable|suspend`: sets the bucket's versioning state (with MinIO's exclusions when given). */
export async function setVersioning(ctx: McContext, arg: string | undefined, op: "enable" | "suspend", exclusions?: VersioningExclusions): Promise<void> {
  const t = s3Target(ctx, arg, `version ${op}`);
  requireBucketOnly(t, `version ${op}`);
  const status = op === "enable" ? "Enabled" : "Suspended";
  const extended = exclusions !== undefined && (exclusions.prefixes.length > 0 || exclusions.folders);
  try {
    if (extended) {
      const body = Buffer.from(versioningXml(status, exclusions));
      await s3Call(t.client, { method: "PUT", bucket: t.bucket, query: "versioning", body, headers: { "Content-MD5": createHash("md5").update(body).digest("base64") } });
    } else {
      await t.client.setBucketVersioning(t.bucket, { Status: status });
    }
  } catch (err) {
    throw featureError(`${op} versioning on \`${t.url}\``, "bucket versioning", err);
  }
  if (!extended) return printVersioning(ctx, op, t.url, status, "");
  const versioning = { status, MFADelete: "", ...(exclusions.prefixes.length > 0 ? { ExcludedPrefixes: exclusions.prefixes } : {}), ...(exclusions.folders ? { ExcludeFolders: true } : {}) };
  ctx.output.result({ Op: op, status: "success", url: t.url, versioning }, `${t.url} versioning is enabled`);
}
