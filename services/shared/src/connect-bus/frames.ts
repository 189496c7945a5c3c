/**
 * Wire format of Connect over the bus. A request is one bus message to the
 * method's subject carrying the Connect HTTP headers and body, with a reply
 * inbox. The server answers on that inbox with a sequence of frames, told
 * apart by the `x-frame` header:
 *
 * - `head`: HTTP status (`x-status`), response headers, the server's control
 *   subject (`x-control`) and the first body bytes;
 * - `data`: more body bytes (a large body is split to fit the bus);
 * - `end`: last body bytes and the trailers (`x-trailer-<name>`);
 * - `head-end`: both at once, the usual unary answer (one message);
 * - `hb`: a heartbeat while the handler works, so a client notices a server
 *   that died mid-call instead of hanging.
 *
 * The client sends `ack` (with `x-count`, the data frames it consumed) and
 * `cancel` frames to the control subject: acks give flow control (the server
 * keeps at most `window` frames unacknowledged), cancel aborts the handler.
 */
export const frameHeader = "x-frame";
export const statusHeader = "x-status";
export const controlHeader = "x-control";
export const countHeader = "x-count";
export const trailerPrefix = "x-trailer-";

export type Frame = "head" | "data" | "end" | "head-end" | "hb" | "ack" | "cancel";

/** Room left for headers when a body chunk is sized to the bus limit. */
export const headerAllowance = 8 * 1024;

export interface FlowSettings {
  /** Frames in flight before the server waits for an ack. */
  readonly window: number;
  /** How often a busy server says it is alive. */
  readonly heartbeatMs: number;
  /** Silence after which a client gives the server up. */
  readonly idleTimeoutMs: number;
  /** Silence after which a server blocked on acks gives the client up. */
  readonly stallTimeoutMs: number;
}

export const defaultFlow: FlowSettings = {
  window: 256,
  heartbeatMs: 1000,
  idleTimeoutMs: 5000,
  stallTimeoutMs: 30000,
};

export function headersToMap(h: Headers, into = new Map<string, string>(), prefix = ""): Map<string, string> {
  h.forEach((value, key) => into.set(prefix + key, value));
  return into;
}

export function concatChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

export async function readAll(body: AsyncIterable<Uint8Array> | undefined): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const c of body) {
    chunks.push(c);
    size += c.byteLength;
  }
  return concatChunks(chunks, size);
}
