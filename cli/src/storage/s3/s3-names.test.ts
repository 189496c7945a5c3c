import { suite } from "uvu";
import * as assert from "uvu/assert";
import { compareKeys } from "../../util/key-order.js";
import { checkLocalName, tempPathFor } from "../local/local-ranges.js";
import { copySource, s3Escape, s3Unescape } from "./s3-escape.js";
import { objectInfoFromHeaders } from "./s3-head.js";

const escape = suite("object names on the wire");

escape("should escape a copy source exactly once, separators kept", () => {
  // The source of issue 16: `a b.bin` went out as `a%2520b.bin`.
  assert.is(copySource("bkt", "a b.bin"), "bkt/a%20b.bin");
  assert.is(copySource("bkt", "dir/100%+#?&=.txt"), "bkt/dir/100%25%2B%23%3F%26%3D.txt");
  assert.is(copySource("bkt", "x/../y", "v-1+/="), "bkt/x/../y?versionId=v-1%2B%2F%3D");
  assert.is(copySource("bkt", "café 😀"), "bkt/caf%C3%A9%20%F0%9F%98%80");
  assert.is(s3Escape("!'()*~-_."), "%21%27%28%29%2A~-_.");
});

escape("should read back keys of url-encoded listings from AWS (+) and RGW (%20)", () => {
  assert.is(s3Unescape("a+b%2Bc"), "a b+c");
  assert.is(s3Unescape("a%20b%2Bc"), "a b+c");
  assert.is(s3Unescape("lit-%252F"), "lit-%2F");
});

escape("should sort keys by code point as S3 does", () => {
  const keys = ["pua-\ue000", "emoji-😀", "a", "A", "é"];
  assert.equal([...keys].sort(compareKeys), ["A", "a", "emoji-😀", "pua-\ue000", "é"].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
  assert.ok(compareKeys("\ue000", "😀") < 0);
  assert.is(compareKeys("ab", "ab"), 0);
  assert.ok(compareKeys("a", "ab") < 0);
});

escape.run();

// ---

const local = suite("object names as local files");

local("should refuse names that would resolve elsewhere", () => {
  for (const bad of ["/t/a//b", "/t/./x", "/t/x/..", "/t/../up", "/t/dir/", "/t/."]) {
    assert.throws(() => checkLocalName(bad), /cannot be a local file name/, bad);
  }
  for (const good of ["/t/a b", "/t/...", "/t/..x", "/t/x..", "/t/.hidden", "/t/a/b c/d"]) checkLocalName(good);
});

local("should keep temp names within 255 bytes", () => {
  const temp = tempPathFor(`/t/${"é".repeat(127)}`);
  assert.ok(Buffer.byteLength(temp.slice(3)) <= 255, temp);
  assert.ok(temp.startsWith("/t/."));
});

local.run();

// ---

const head = suite("object facts from response headers");

head("should read every field upstream's stat prints", () => {
  const info = objectInfoFromHeaders("k", {
    "content-length": "3",
    etag: '"abc"',
    "last-modified": "Wed, 01 Jan 2025 00:00:00 GMT",
    expires: "Thu, 01 Jan 1970 00:00:00 GMT",
    "x-amz-expiration": 'expiry-date="Fri, 02 Jan 2026 00:00:00 GMT", rule-id="r"',
    "x-amz-restore": 'ongoing-request="true"',
    "x-amz-storage-class": "COLD",
    "x-amz-checksum-crc32c": "AAAA",
    "x-amz-meta-a": "1",
  });
  assert.is(info.size, 3);
  assert.is(info.etag, "abc");
  assert.is(info.expires, undefined, "the zero time means none");
  assert.equal([info.expiration?.toISOString(), info.expirationRuleId], ["2026-01-02T00:00:00.000Z", "r"]);
  assert.equal(info.restore, { ongoing: true });
  assert.is(info.storageClass, "COLD");
  assert.equal(info.checksum, { CRC32C: "AAAA" });
  assert.equal(info.metadata, { "X-Amz-Storage-Class": "COLD", "X-Amz-Meta-A": "1" });
});

head.run();
