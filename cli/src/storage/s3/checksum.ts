import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import { crc32 } from "node:zlib";
import { mcError, usageError } from "../../core/errors.js";
import { crc32c, crc64nvme, type Crc64 } from "../../util/crc.js";
import type { ChecksumAlgorithm } from "../types.js";

export const checksumAlgorithms: readonly ChecksumAlgorithm[] = ["CRC32", "CRC32C", "SHA1", "SHA256", "CRC64NVME"];

/** A running digest of one algorithm; `value()` is S3's form: base64 of the big-endian bytes. */
export interface Checksummer {
  update(data: Uint8Array): void;
  value(): string;
}

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

export function createChecksummer(algorithm: ChecksumAlgorithm): Checksummer {
  switch (algorithm) {
    case "SHA1":
    case "SHA256": {
      const hash = createHash(algorithm === "SHA1" ? "sha1" : "sha256");
      return { update: (d) => void hash.update(d), value: () => hash.digest("base64") };
    }
    case "CRC32": {
      let crc = 0;
      return { update: (d) => void (crc = crc32(d, crc)), value: () => u32(crc).toString("base64") };
    }
    case "CRC32C": {
      let crc = 0;
      return { update: (d) => void (crc = crc32c(d, crc)), value: () => u32(crc).toString("base64") };
    }
    case "CRC64NVME": {
      let crc: Crc64 = [0, 0];
      return { update: (d) => void (crc = crc64nvme(d, crc)), value: () => Buffer.concat([u32(crc[0]), u32(crc[1])]).toString("base64") };
    }
  }
}

/** The checksum of one buffer. */
export function checksumOf(algorithm: ChecksumAlgorithm, data: Uint8Array): string {
  const c = createChecksummer(algorithm);
  c.update(data);
  return c.value();
}

/** `x-amz-checksum-crc32` etc. */
export const checksumHeader = (algorithm: ChecksumAlgorithm): string => `x-amz-checksum-${algorithm.toLowerCase()}`;

/** A `--checksum` value, any case; anything else is a usage error naming the choices. */
export function parseChecksum(value: string | undefined): ChecksumAlgorithm | undefined {
  if (value === undefined) return undefined;
  const upper = value.toUpperCase();
  const found = checksumAlgorithms.find((a) => a === upper);
  if (!found) throw usageError(`invalid --checksum \`${value}\`; use one of ${checksumAlgorithms.join(", ")}.`);
  return found;
}

/**
 * The one full-object checksum a GET answer carries, if any. A composite
 * checksum of a multipart object (`…-N`, x-amz-checksum-type COMPOSITE) is a
 * checksum of part checksums: without the part boundaries it cannot be
 * checked against the bytes, so it is not returned.
 */
export function fullObjectChecksum(headers: Readonly<Record<string, string | string[] | undefined>>): { algorithm: ChecksumAlgorithm; value: string } | undefined {
  if (String(headers["x-amz-checksum-type"] ?? "").toUpperCase() === "COMPOSITE") return undefined;
  for (const algorithm of checksumAlgorithms) {
    const value = headers[checksumHeader(algorithm)];
    if (typeof value === "string" && value !== "" && !/-\d+$/.test(value)) return { algorithm, value };
  }
  return undefined;
}

/**
 * Passes the bytes through and, at their end, fails the stream unless their
 * checksum is the one the server sent: a reader writing a file then never
 * renames it into place.
 */
export function verifyingStream(expected: { algorithm: ChecksumAlgorithm; value: string }, key: string): Transform {
  const sum = createChecksummer(expected.algorithm);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      sum.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      const got = sum.value();
      if (got === expected.value) return done();
      const detail = `the ${expected.algorithm} checksum of the data, ${got}, does not match ${expected.value} sent by the server`;
      done(mcError(`Integrity check failed for \`${key}\`: ${detail}.`, new Error(detail), "internal"));
    },
  });
}
