/** A file in the store. */
export interface StoredFile {
  readonly size: number;
  readonly modified: Date;
}

export interface ByteRange {
  /** First byte, inclusive. */
  readonly start: number;
  /** Last byte, inclusive. */
  readonly end: number;
}

/**
 * The release store: files at paths laid out like the public URL space
 * (`layout.ts`). Paths are relative, `/`-separated, already validated.
 * Adapters: a directory tree, an S3 bucket.
 */
export interface ReleaseStore {
  /** The whole file, or undefined when there is none. */
  read(path: string): Promise<Uint8Array | undefined>;
  stat(path: string): Promise<StoredFile | undefined>;
  /** Names directly under a folder (files and folders), sorted; empty when none. */
  list(dir: string): Promise<string[]>;
  /** Replaces the file atomically: readers see the old bytes or the new, never a mix. */
  write(path: string, data: Uint8Array): Promise<void>;
  /** A stream of the file's bytes (or a range of them), or undefined when there is none. */
  openRead(path: string, range?: ByteRange): Promise<AsyncIterable<Uint8Array> | undefined>;
}
