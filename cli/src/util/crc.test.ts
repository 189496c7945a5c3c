import { suite } from "uvu";
import * as assert from "uvu/assert";
import { crc32c, crc64nvme } from "./crc.js";

const crc = suite("CRC-32C and CRC-64/NVME");
const check = Buffer.from("123456789");

crc("should give the catalogued check values of 123456789", () => {
  // The "check" column of the CRC catalogue (reveng): CRC-32/ISCSI and CRC-64/NVME.
  assert.is(crc32c(check).toString(16), "e3069283");
  const [hi, lo] = crc64nvme(check);
  assert.is(hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0"), "ae8b14860a799888");
});

crc("should give the same value fed in pieces as whole", () => {
  const data = Buffer.from("The quick brown fox jumps over the lazy dog, again and again.");
  assert.is(crc32c(data.subarray(20), crc32c(data.subarray(0, 20))), crc32c(data));
  assert.equal(crc64nvme(data.subarray(7), crc64nvme(data.subarray(0, 7))), crc64nvme(data));
  assert.is(crc32c(Buffer.alloc(0)), 0);
  assert.equal(crc64nvme(Buffer.alloc(0)), [0, 0]);
});

crc.run();
