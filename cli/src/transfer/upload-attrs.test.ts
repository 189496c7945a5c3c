import { test } from "uvu";
import * as assert from "uvu/assert";
import { isAppError } from "@mc/shared/errors";
import { uploadHeaders } from "./upload-attrs.js";

test("maps --attr to standard headers and user metadata, --tags and --storage-class to their headers", () => {
  assert.equal(uploadHeaders({ attr: "Cache-Control=max-age=90,min-fresh=9;artist=Miles Davis;content-type=text/x-demo" }), {
    "Cache-Control": "max-age=90,min-fresh=9",
    "X-Amz-Meta-artist": "Miles Davis",
    "Content-Type": "text/x-demo",
  });
  assert.equal(uploadHeaders({ tags: "project=alpha&team=a b", storageClass: "standard" }), { "X-Amz-Tagging": "project=alpha&team=a+b", "X-Amz-Storage-Class": "STANDARD" });
  assert.is(uploadHeaders({}), undefined);
});

test("sets object lock on the new object: mode with duration, legal hold", () => {
  const h = uploadHeaders({ retentionMode: "governance", retentionDuration: "2d", legalHold: "on" }) ?? {};
  assert.is(h["X-Amz-Object-Lock-Mode"], "GOVERNANCE");
  assert.ok(Math.abs(Date.parse(h["X-Amz-Object-Lock-Retain-Until-Date"] ?? "") - (Date.now() + 2 * 86400e3)) < 5000);
  assert.is(h["X-Amz-Object-Lock-Legal-Hold"], "ON");
});

test("refuses malformed values as usage errors", () => {
  const cases: Array<[Parameters<typeof uploadHeaders>[0], string]> = [
    [{ attr: "novalue" }, "invalid --attr `novalue`"],
    [{ attr: "bad key=1" }, "invalid --attr `bad key=1`"],
    [{ attr: "k=a\nb" }, "no line breaks"],
    [{ tags: "" }, "tags must be given as"],
    [{ tags: "=v" }, "invalid tag `=v`"],
    [{ tags: Array.from({ length: 11 }, (_, i) => `k${i}=v`).join("&") }, "at most 10 tags"],
    [{ tags: `k=${"v".repeat(257)}` }, "is too long"],
    [{ storageClass: "GLACIER IR" }, "invalid --storage-class"],
    [{ retentionMode: "governance" }, "--retention-mode and --retention-duration go together"],
    [{ retentionDuration: "1d" }, "go together"],
    [{ retentionMode: "forever", retentionDuration: "1d" }, "invalid retention mode `forever`"],
    [{ retentionMode: "compliance", retentionDuration: "1w" }, "invalid validity `1w`"],
    [{ legalHold: "yes" }, "invalid --legal-hold `yes`"],
  ];
  for (const [flags, message] of cases) {
    try {
      uploadHeaders(flags);
      assert.unreachable(JSON.stringify(flags));
    } catch (err) {
      assert.ok(isAppError(err) && err.reason === "invalid_argument");
      assert.match((err as Error).message, message);
    }
  }
});

test.run();
