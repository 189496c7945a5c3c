// Where the binary state encoding (state-binary.ts) writes: one encoder for
// two sinks, so the length a first pass counts (it goes into the sealed
// snapshot's header before the first chunk) is the length the second writes.

export interface Sink {
  /** Starts a record: u8 kind, then a u32 length of what follows, filled in by `end`. */
  begin(kind: number): void;
  end(): void;
  u8(n: number): void;
  f64(n: number): void;
  u64(n: bigint): void;
  /** Unsigned LEB128, below 2^32. */
  varint(n: number): void;
  /** varint byte length, then UTF-8. */
  str(s: string): void;
  /** varint length, then the bytes. */
  bytes(b: Uint8Array): void;
  /** `bytes` of `b[from..to)`, copied without making a view. */
  range(b: Uint8Array, from: number, to: number): void;
  readonly total: number;
}

function varintBytes(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) throw new Error(`cannot encode ${n} as a varint`);
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Counts the bytes an encoding would take. */
export function createCountingSink(): Sink {
  let total = 0;
  return {
    get total() {
      return total;
    },
    begin: () => void (total += 5),
    end: () => undefined,
    u8: () => void (total += 1),
    f64: () => void (total += 8),
    u64: () => void (total += 8),
    varint: (n) => void (total += varintBytes(n)),
    str(s) {
      const n = Buffer.byteLength(s, "utf8");
      total += varintBytes(n) + n;
    },
    bytes(b) {
      total += varintBytes(b.length) + b.length;
    },
    range(_b, from, to) {
      total += varintBytes(to - from) + (to - from);
    },
  };
}

export interface PieceSink extends Sink {
  readonly ready: boolean;
  /** The pieces finished since the last call (call between records only: a record's length is filled in at its end). */
  take(): Buffer[];
  /** Everything written, the last piece included. */
  finish(): Buffer[];
}

/**
 * Writes into pieces of about `pieceBytes`. With `reuse`, a piece given out
 * by `take` is valid only until the sink is written to again, which then
 * reuses its buffer: for a consumer that copies each piece before asking
 * for the next (the snapshot sealer), a snapshot's worth of 64 KiB buffers
 * is never allocated (external memory churn sets off collections).
 */
export function createPieceSink(pieceBytes = 64 * 1024, reuse = false): PieceSink {
  let piece: Buffer = Buffer.allocUnsafe(pieceBytes);
  let at = 0;
  let done: Buffer[] = [];
  let total = 0;
  // The open record's length field: where it is and the total at its start (plain
  // variables, not an object per record: a million records made a million objects).
  let openPiece: Buffer | undefined;
  let openAt = 0;
  let openTotal = 0;
  /** Buffers given out by the last `take`, and buffers free for reuse. */
  let lent: Buffer[] = [];
  const free: Buffer[] = [];
  const fresh = (n: number): Buffer => {
    if (reuse && lent.length > 0) {
      free.push(...lent);
      lent = [];
    }
    return n <= pieceBytes ? (free.pop() ?? Buffer.allocUnsafe(pieceBytes)) : Buffer.allocUnsafe(n);
  };
  const room = (n: number): void => {
    if (at + n <= piece.length) return;
    if (at > 0) done.push(piece.subarray(0, at));
    piece = fresh(n);
    at = 0;
  };
  const raw = (b: Uint8Array): void => {
    if (b.length > pieceBytes) {
      // Long values (a large policy) go as their own piece.
      if (at > 0) done.push(piece.subarray(0, at));
      done.push(Buffer.from(b));
      piece = fresh(pieceBytes);
      at = 0;
    } else {
      room(b.length);
      piece.set(b, at);
      at += b.length;
    }
    total += b.length;
  };
  const sink: PieceSink = {
    get total() {
      return total;
    },
    begin(kind) {
      room(5);
      piece[at] = kind;
      openPiece = piece;
      openAt = at + 1;
      openTotal = total;
      at += 5;
      total += 5;
    },
    end() {
      if (!openPiece) throw new Error("a record ended that never began");
      openPiece.writeUInt32BE(total - openTotal - 5, openAt);
      openPiece = undefined;
    },
    u8(n) {
      room(1);
      piece[at++] = n;
      total += 1;
    },
    f64(n) {
      room(8);
      piece.writeDoubleBE(n, at);
      at += 8;
      total += 8;
    },
    u64(n) {
      room(8);
      piece.writeBigUInt64BE(n, at);
      at += 8;
      total += 8;
    },
    varint(n) {
      const len = varintBytes(n);
      room(len);
      for (let i = 0; i < len - 1; i++) {
        piece[at++] = (n % 0x80) | 0x80;
        n = Math.floor(n / 0x80);
      }
      piece[at++] = n;
      total += len;
    },
    str(s) {
      const n = Buffer.byteLength(s, "utf8");
      sink.varint(n);
      if (n > 256) return raw(Buffer.from(s, "utf8"));
      room(n);
      at += piece.write(s, at, "utf8");
      total += n;
    },
    bytes(b) {
      sink.varint(b.length);
      raw(b);
    },
    range(b, from, to) {
      const n = to - from;
      if (n > 256) return sink.bytes(b.subarray(from, to));
      sink.varint(n);
      room(n);
      for (let i = from; i < to; i++) piece[at++] = b[i] as number;
      total += n;
    },
    /** Whether `take` has pieces to give. */
    get ready() {
      return done.length > 0;
    },
    take() {
      if (openPiece) throw new Error("pieces taken inside a record");
      const out = done;
      done = [];
      // Their buffers come back at the next write (a long value's own buffer never does: it is not a piece's size).
      if (reuse) for (const b of out) if (b.byteOffset === 0 && b.buffer.byteLength === pieceBytes) lent.push(Buffer.from(b.buffer, 0, pieceBytes));
      return out;
    },
    finish() {
      const out = sink.take();
      if (at > 0) out.push(piece.subarray(0, at));
      piece = Buffer.allocUnsafe(0);
      at = 0;
      return out;
    },
  };
  return sink;
}
