import { isAppError } from "@mc/shared/errors";
import type { Location } from "../storage/location.js";
import type { WatchEvent } from "../storage/watch-event.js";
import { watchRemote } from "../storage/s3/watch-remote.js";
import { mcError } from "../core/errors.js";

/**
 * `mirror --active-active` (upstream cmd/mirror-main.go): two sites mirror
 * into each other. Each copy is marked with the source's modification time
 * (X-Amz-Meta-Mm-Source-Mtime, kept from the source when it already has
 * one), and the source bucket is followed through MinIO's
 * ListenBucketNotification: an object created by the other site's mirror
 * (it carries the mark) is not copied back, and a removal made by a mirror
 * writing to our target (its User-Agent says `mc-mirror:<target alias>`) is
 * not removed again.
 */
export const sourceMtimeHeader = "X-Amz-Meta-Mm-Source-Mtime";

/** The mark in an object's metadata or an event's user metadata (upstream getSourceModTimeKey). */
export function sourceMtimeOf(metadata: Readonly<Record<string, string>> | undefined): string {
  for (const [k, v] of Object.entries(metadata ?? {})) {
    const key = k.toLowerCase();
    if ((key === sourceMtimeHeader.toLowerCase() || key === "mm-source-mtime") && v !== "") return v;
  }
  return "";
}

/** Go's time.RFC3339Nano of a UTC time: the fraction without trailing zeros. */
export function goRfc3339Nano(d: Date): string {
  return d.toISOString().replace(/\.?0*Z$/, "Z");
}

/** The mark of a copy: the source's own, or its modification time. */
export const markFor = (metadata: Readonly<Record<string, string>> | undefined, modified: Date): string => sourceMtimeOf(metadata) || goRfc3339Nano(modified);

/** Created events a mirror wrote (marked), other than copies and completed multipart uploads, are not copied back. */
export function isMirrorEcho(ev: WatchEvent): boolean {
  return ev.type !== "s3:ObjectCreated:Copy" && ev.type !== "s3:ObjectCreated:CompleteMultipartUpload" && sourceMtimeOf(ev.userMetadata) !== "";
}

/** A removal made by a mirror writing into our target: cyclical, not repeated. */
export function isCyclicRemoval(ev: WatchEvent, targetAlias: string): boolean {
  return targetAlias !== "" && ev.source.userAgent.includes(`mc-mirror:${targetAlias}`);
}

export interface SourceEvents {
  /** The next event, or undefined once the stream has ended (Ctrl-C). */
  next(): Promise<WatchEvent | undefined>;
}

/**
 * Listens to the source bucket (created and removed objects below the
 * source prefix); resolves once the server has accepted the listen request,
 * so a server without the API fails before anything is copied.
 */
export async function listenSource(src: Extract<Location, { kind: "s3" }>, prefix: string, signal: AbortSignal): Promise<SourceEvents> {
  const queue: WatchEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = watchRemote(src.client, src.alias.name, src.bucket, { events: new Set(["put", "delete"]), prefix, suffix: "", signal, onOpen: opened }, (ev) => {
    queue.push(ev);
    wake?.();
  }).then(
    () => {
      ended = true;
      wake?.();
    },
    (err: unknown) => {
      failure = isAppError(err) ? err : mcError(`Unable to watch \`${src.arg}\`.`, err);
      ended = true;
      wake?.();
    },
  );
  await Promise.race([open, done]);
  if (failure !== undefined) throw failure;
  return {
    async next() {
      while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const ev = queue.shift();
      if (ev === undefined && failure !== undefined) throw failure;
      return ev;
    },
  };
}
