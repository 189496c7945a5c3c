import { suite } from "uvu";
import * as assert from "uvu/assert";
import { expiryText, iBytes, iBytesCompact, parseDuration, parseSize } from "./humanize.js";

const sizes = suite("humanize IBytes (contracts/mc.md §6)");

sizes("should print bytes under 10 as `N B`", () => {
  assert.is(iBytes(0), "0 B");
  assert.is(iBytes(9), "9 B");
});

sizes("should use one decimal below 10 units and none above", () => {
  assert.is(iBytes(1536), "1.5 KiB");
  assert.is(iBytes(65 * 1024 * 1024), "65 MiB");
  assert.is(iBytes(1024), "1.0 KiB");
  assert.is(iBytes(100), "100 B");
});

sizes("should drop the space for ls and du", () => {
  assert.is(iBytesCompact(1536), "1.5KiB");
});

sizes.run();

// ---

const durations = suite("durations and sizes of flags");

durations("should parse mc durations :: 7d10h31s", () => {
  assert.is(parseDuration("7d10h31s"), ((7 * 24 + 10) * 3600 + 31) * 1000);
  assert.is(parseDuration("1w"), 7 * 86400000);
  assert.is(parseDuration("500ms"), 500);
});

durations("should reject malformed durations", () => {
  assert.is(parseDuration("7x"), undefined);
  assert.is(parseDuration(""), undefined);
  assert.is(parseDuration("d"), undefined);
});

durations("should parse SI and IEC sizes", () => {
  assert.is(parseSize("1k"), 1000);
  assert.is(parseSize("1ki"), 1024);
  assert.is(parseSize("16MiB"), 16 * 1024 * 1024);
  assert.is(parseSize("2m"), 2_000_000);
  assert.is(parseSize("12"), 12);
  assert.is(parseSize("abc"), undefined);
});

durations("should print share expiry :: 7 days", () => {
  assert.is(expiryText(7 * 86400000), "7 days 0 hours 0 minutes 0 seconds");
});

durations.run();
