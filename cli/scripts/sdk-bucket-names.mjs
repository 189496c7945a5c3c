// The minio SDK refuses, before sending anything, every bucket name outside
// today's strict rules (lower case, digits, `.` and `-`): every command on a
// bucket named before the rules were tightened (`Legacy_Bucket`, still served
// by AWS and by Ceph RGW) failed with the SDK's "Invalid bucket name". The
// original client checks such names with minio-go's relaxed rule instead. mc
// checks a name once, where it enters (src/storage/location.ts: the same
// rule), so the SDK's check becomes "a name was given". The build fails when
// the SDK's function is no longer the one replaced (a new release).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const strictCheckSha256 = "bd697b54d3e7988158bdd2ff03345a9cf07731d2769bd2175a33cd987600821c";
const signature = "export function isValidBucketName(bucket) {";

function patchHelper(source, file) {
  const at = source.indexOf(signature);
  const end = source.indexOf("\n}\n", at) + 2;
  const digest = createHash("sha256").update(source.slice(at, end)).digest("hex");
  if (at < 0 || digest !== strictCheckSha256) {
    throw new Error(`${file}: isValidBucketName is not the function cli/scripts/sdk-bucket-names.mjs replaces (minio changed, sha256 ${digest}): update it`);
  }
  return `${source.slice(0, at)}${signature}\n  return typeof bucket === "string" && bucket.length > 0;\n}${source.slice(end)}`;
}

/** The esbuild plugin, in every bundle of mc (so the test suite runs what users run). */
export const sdkBucketNames = {
  name: "mc-sdk-bucket-names",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]minio[\\/]dist[\\/]esm[\\/]internal[\\/]helper\.mjs$/ }, (args) => ({ contents: patchHelper(readFileSync(args.path, "utf8"), args.path), loader: "js" }));
  },
};
