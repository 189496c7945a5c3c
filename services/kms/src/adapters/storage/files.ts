// The one atomic-write implementation lives in @mc/shared; the KMS keeps its
// secret files private (mode 0600) by default.
import { writeFileAtomic as writeAtomic, type AtomicWriteOptions } from "@mc/shared/node";

export { syncDir } from "@mc/shared/node";

/** Writes a file atomically and durably, mode 0600 unless told otherwise. */
export function writeFileAtomic(path: string, data: Uint8Array | AsyncIterable<Uint8Array>, mode = 0o600, o: AtomicWriteOptions = {}): Promise<void> {
  return writeAtomic(path, data, mode, o);
}
