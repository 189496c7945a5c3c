import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Client } from "minio";
import type { ResolvedAlias } from "../config/aliases.js";
import { isNewBucketName, parseLocation, type LocationDeps } from "./location.js";
import type { Store } from "./types.js";

// Nothing here is called: parsing only picks the alias and checks the bucket name.
const alias = { name: "rgw" } as unknown as ResolvedAlias;
const deps: LocationDeps = {
  aliases: new Map([["rgw", alias]]),
  localStore: {} as Store,
  client: () => ({}) as Client,
  bucketStore: () => ({}) as Store,
};

test("bucket names of 3 to 63 characters parse, including legacy upper case and underscores", () => {
  for (const name of ["abc", "my-bucket.v2", "a".repeat(63), "Legacy_Bucket", "MyBucket", "a:b", "10.0.0.1x"]) {
    const loc = parseLocation(`rgw/${name}/some key`, deps);
    assert.is(loc.kind, "s3");
    if (loc.kind === "s3") assert.equal([loc.bucket, loc.key], [name, "some key"]);
  }
});

test("a bucket name no S3 server takes is refused before any request, in one line", () => {
  // The last ones as minio-go's relaxed rule refuses them: an IP address, `..`, `.-`, `-.`, a trailing `-` or `_`.
  for (const name of ["ab", "a", "a".repeat(64), "-abc", ".abc", "ab c", "ab#c", "bücket", "192.168.1.10", "a..b", "a.-b", "a-.b", "abc-", "abc_"]) {
    assert.throws(
      () => parseLocation(`rgw/${name}/key`, deps),
      (err: Error) => err.message === `Invalid bucket name \`${name}\`.`,
      name,
    );
  }
});

test("a bucket made anew follows the strict rule: no upper case, `_` or `:`", () => {
  assert.equal(["my-bucket.v2", "abc", "Legacy_Bucket", "MyBucket", "a_b", "a:b", "a..b"].map(isNewBucketName), [true, true, false, false, false, false, false]);
});

test("a bare alias has no bucket; a local path is not checked", () => {
  const bare = parseLocation("rgw", deps);
  assert.is(bare.kind === "s3" && bare.bucket, "");
  assert.is(parseLocation("./ab", deps).kind, "local");
});

test.run();
