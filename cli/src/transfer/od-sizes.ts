// How much `mc od` moves, decided as upstream's odSetSizes (cmd/od-operation.go):
// `size=` is the size of EACH PART and `parts=` their number, so
// `if=/dev/zero size=64MiB parts=16` uploads 1 GiB, as the same command does
// with upstream's mc. Pure: no I/O.

export interface OdRequest {
  /** Bytes in the source: a regular file's or object's size; 0 for a stream (a device, a FIFO, generated data). */
  readonly sourceSize: number;
  /** `size=` in bytes, when given. */
  readonly partSize?: number;
  /** `parts=`, 0 when not given. */
  readonly parts: number;
  /** `skip=`: parts to pass over at the start of the source. */
  readonly skip: number;
}

export interface OdPlan {
  /** Bytes read from `offset` and written, exactly. */
  readonly total: number;
  readonly offset: number;
  readonly partSize: number;
  readonly parts: number;
  /** Parts passed over, as reported. */
  readonly skip: number;
}

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);

/** The plan, or a message saying why there is none. */
export function planOd(r: OdRequest): OdPlan | string {
  const { sourceSize, parts, skip } = r;
  if (r.partSize === undefined) {
    if (parts <= 1) return { total: sourceSize, offset: 0, partSize: sourceSize, parts: 1, skip: 0 };
    if (sourceSize === 0) return "od needs size= (the size of each part) with parts= for a source of unknown length.";
    const partSize = ceilDiv(sourceSize, parts);
    const offset = Math.min(skip * partSize, sourceSize);
    return { total: sourceSize - offset, offset, partSize, parts: Math.max(0, parts - skip), skip };
  }
  const partSize = r.partSize;
  if (partSize <= 0) return "size= must be at least 1 byte.";
  const offset = skip * partSize;
  // A stream has no size: it gives as many parts as asked (one by default).
  if (sourceSize === 0) {
    const n = Math.max(parts, 1);
    return { total: partSize * n, offset, partSize, parts: n, skip };
  }
  if (partSize > sourceSize) return { total: sourceSize, offset: 0, partSize: sourceSize, parts: 1, skip: 0 };
  if (offset >= sourceSize) return `skip=${skip} passes the end of the source (${sourceSize} bytes in parts of ${partSize}).`;
  const rest = sourceSize - offset;
  const left = ceilDiv(sourceSize, partSize) - skip;
  if (parts < 1 || partSize * parts > rest) return { total: rest, offset, partSize, parts: left, skip };
  return { total: partSize * parts, offset, partSize, parts, skip };
}
