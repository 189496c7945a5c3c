import { suite } from "uvu";
import * as assert from "uvu/assert";
import { planOd } from "./od-sizes.js";

const od = suite("od sizes (upstream's odSetSizes: size= is each part's size)");
const MiB = 1024 * 1024;

od("should upload size x parts from a stream such as /dev/zero, one part by default", () => {
  assert.equal(planOd({ sourceSize: 0, partSize: 64 * MiB, parts: 16, skip: 0 }), { total: 1024 * MiB, offset: 0, partSize: 64 * MiB, parts: 16, skip: 0 });
  assert.equal(planOd({ sourceSize: 0, partSize: 5 * MiB, parts: 0, skip: 0 }), { total: 5 * MiB, offset: 0, partSize: 5 * MiB, parts: 1, skip: 0 });
  assert.type(planOd({ sourceSize: 0, parts: 4, skip: 0 }), "string");
  // Upstream's whole-source case, which for a stream is nothing.
  assert.equal(planOd({ sourceSize: 0, parts: 0, skip: 0 }), { total: 0, offset: 0, partSize: 0, parts: 1, skip: 0 });
});

od("should copy a whole file in one part without size= or parts=", () => {
  assert.equal(planOd({ sourceSize: 11 * MiB, parts: 0, skip: 0 }), { total: 11 * MiB, offset: 0, partSize: 11 * MiB, parts: 1, skip: 0 });
});

od("should split a file into parts= parts when size= is not given, skip= counting in those parts", () => {
  assert.equal(planOd({ sourceSize: 10 * MiB, parts: 4, skip: 0 }), { total: 10 * MiB, offset: 0, partSize: 2621440, parts: 4, skip: 0 });
  assert.equal(planOd({ sourceSize: 10 * MiB, parts: 4, skip: 1 }), { total: 10 * MiB - 2621440, offset: 2621440, partSize: 2621440, parts: 3, skip: 1 });
});

od("should take size x parts of a file from skip x size, never past its end", () => {
  assert.equal(planOd({ sourceSize: 10 * MiB, partSize: 2 * MiB, parts: 2, skip: 1 }), { total: 4 * MiB, offset: 2 * MiB, partSize: 2 * MiB, parts: 2, skip: 1 });
  // Asked for more than is left: the rest, in the parts it makes.
  assert.equal(planOd({ sourceSize: 10 * MiB, partSize: 4 * MiB, parts: 5, skip: 1 }), { total: 6 * MiB, offset: 4 * MiB, partSize: 4 * MiB, parts: 2, skip: 1 });
  // No parts=: the whole rest of the file.
  assert.equal(planOd({ sourceSize: 10 * MiB, partSize: 4 * MiB, parts: 0, skip: 0 }), { total: 10 * MiB, offset: 0, partSize: 4 * MiB, parts: 3, skip: 0 });
});

od("should send a file smaller than one part whole, in one part", () => {
  assert.equal(planOd({ sourceSize: 100, partSize: MiB, parts: 3, skip: 2 }), { total: 100, offset: 0, partSize: 100, parts: 1, skip: 0 });
});

od("should refuse a skip past the end and an empty part size", () => {
  assert.match(String(planOd({ sourceSize: 10 * MiB, partSize: 2 * MiB, parts: 1, skip: 5 })), /passes the end/);
  assert.match(String(planOd({ sourceSize: 10, partSize: 0, parts: 1, skip: 0 })), /at least 1 byte/);
});

od.run();
