import type { Readable } from "node:stream";

/** S3's additional checksums (`x-amz-checksum-*`), as `--checksum` names them. */
export type ChecksumAlgorithm = "CRC32" | "CRC32C" | "SHA1" | "SHA256" | "CRC64NVME";

/** One listed object or folder; `key` is the full key (S3) or absolute path (local). */
export interface Entry {
  readonly key: string;
  readonly size: number;
  readonly lastModified: Date;
  readonly etag: string;
  readonly isDir: boolean;
  readonly storageClass?: string;
  readonly versionId?: string;
  readonly isLatest?: boolean;
  readonly isDeleteMarker?: boolean;
}

export interface ObjectInfo extends Entry {
  readonly contentType?: string;
  /** User metadata with canonical header names (`X-Amz-Meta-Key1`). */
  readonly metadata: Readonly<Record<string, string>>;
  /** `SSE-C`, `SSE-S3` or `SSE-KMS (<key id>)` when the server says the object is encrypted. */
  readonly encryption?: string;
  /** The `Expires` header. */
  readonly expires?: Date;
  /** When a lifecycle rule (`expirationRuleId`) will delete the object (x-amz-expiration). */
  readonly expiration?: Date;
  readonly expirationRuleId?: string;
  readonly replicationStatus?: string;
  /** An archived object's restore state (x-amz-restore). */
  readonly restore?: RestoreInfo;
  /** Checksums the server keeps, by algorithm (`CRC32`, `SHA256`, …). */
  readonly checksum?: Readonly<Record<string, string>>;
}

export interface RestoreInfo {
  readonly ongoing: boolean;
  readonly expiry?: Date;
}

export interface ListOptions {
  readonly recursive: boolean;
  readonly versions?: boolean;
}

export interface ReadOptions {
  /** Local only: a FIFO or device is read like a file (cat, head), not refused as copies refuse it. */
  readonly anyFile?: boolean;
  readonly offset?: number;
  readonly length?: number;
  readonly versionId?: string;
  /** One part of a multipart object (GetObject partNumber). */
  readonly partNumber?: number;
  /** The ETag (unquoted) the object must still have: a ranged download must not mix two versions. */
  readonly ifMatch?: string;
}

export interface WriteOptions {
  readonly signal?: AbortSignal;
  readonly contentType?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** More request headers from the user (`--attr`, `--tags`, `--storage-class`); they win over contentType. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Bytes written so far, for progress bars. */
  readonly onProgress?: (bytes: number) => void;
  /** Called once the data is written and before it becomes visible; throwing discards it. */
  readonly verify?: () => void;
  /** `--checksum`: each PUT/UploadPart carries this x-amz-checksum-* of its bytes (S3 only). */
  readonly checksum?: ChecksumAlgorithm;
  /** Server-side encryption: headers for the PUT/CreateMultipartUpload and for every UploadPart (SSE-C). */
  readonly encryption?: { readonly headers: Readonly<Record<string, string>>; readonly partHeaders: Readonly<Record<string, string>> };
}

/**
 * The one interface of both backends. Keys are `/`-separated: a path under the
 * filesystem root for local, an object key inside one bucket for S3, so the
 * planning code (cp -r, mirror, find, diff) works the same on both.
 */
export interface Store {
  readonly kind: "local" | "s3";
  /** How a key is shown to the user: `alias/bucket/key` or the local path. */
  url(key: string): string;
  /** Undefined when no object/file has exactly this key. */
  stat(key: string, versionId?: string): Promise<ObjectInfo | undefined>;
  /** True when something exists below `prefix/`. */
  isDir(key: string): Promise<boolean>;
  /** Entries whose key starts with `prefix`; not recursive: folders end in `/`. Sorted by key. */
  list(prefix: string, options: ListOptions): AsyncIterable<Entry>;
  read(key: string, options?: ReadOptions): Promise<Readable>;
  /** Writes the whole stream; nothing is visible under `key` unless it completes. */
  write(key: string, source: Readable, size: number | undefined, options?: WriteOptions): Promise<void>;
  remove(key: string, versionId?: string): Promise<{ deleteMarker: boolean; versionId: string }>;
  /** Server-side copy when `src` lives on the same server; false when it cannot. */
  copyFrom?(src: Store, srcKey: string, key: string, size: number, versionId?: string): Promise<boolean>;
  /**
   * Writes `size` bytes fetched as ranges, `parallel` at a time (local files only:
   * parallel ranged GETs for big downloads). Same visibility rule as write().
   */
  writeRanges?(key: string, size: number, fetch: (offset: number, length: number) => Promise<Readable>, options: RangeWriteOptions): Promise<void>;
  /**
   * S3 over plain HTTP only: connections that read ranges of one object straight
   * into a buffer (see RangeConnection); undefined when this store has none.
   */
  rangeConnector?(key: string, options: Pick<ReadOptions, "versionId" | "ifMatch">): ((signal?: AbortSignal) => RangeConnection) | undefined;
}

export interface RangeWriteOptions {
  readonly rangeSize: number;
  readonly parallel: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytes: number) => void;
  /** One per worker: ranges are read through it first, and through `fetch` when it declines one. */
  readonly connect?: (signal?: AbortSignal) => RangeConnection;
}

/**
 * One kept-alive connection reading ranges of one object, no stream in
 * between: the socket reads into one buffer, and each time it is full (or the
 * range ends) its bytes go to `take`, synchronously, before it is refilled.
 */
export interface RangeConnection {
  /**
   * True once the whole range went through `take`. False when the server's
   * answer was anything but the range itself (an error status, a dropped
   * connection before the answer): nothing went to `take`, and the caller
   * asks for the range another way, which reports the server's error.
   */
  read(offset: number, length: number, take: (bytes: Buffer, position: number) => void): Promise<boolean>;
  close(): void;
}
