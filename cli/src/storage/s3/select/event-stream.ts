import { crc32 } from "node:zlib";
import { mcError } from "../../../core/errors.js";

/** One message of the AWS event-stream encoding (what SelectObjectContent answers with). */
export interface EventMessage {
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: Buffer;
}

/** Larger messages than S3 ever sends (16 MiB payloads) mean the stream is corrupt, not that we should buffer more. */
const maxMessage = 24 * 1024 * 1024;
const corrupt = (why: string): Error => mcError("The server's event stream is corrupt.", new Error(why), "bad_gateway");

/** Header values: only strings carry meaning for S3 Select; other types are skipped by their size. */
function parseHeaders(buf: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  let at = 0;
  const need = (n: number): void => {
    if (at + n > buf.length) throw corrupt("a header runs past the header section");
  };
  while (at < buf.length) {
    need(1);
    const nameLen = buf.readUInt8(at);
    need(1 + nameLen + 1);
    const name = buf.toString("utf8", at + 1, at + 1 + nameLen);
    const type = buf.readUInt8(at + 1 + nameLen);
    at += 2 + nameLen;
    const fixed: Readonly<Record<number, number>> = { 0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16 };
    if (type === 6 || type === 7) {
      need(2);
      const len = buf.readUInt16BE(at);
      need(2 + len);
      if (type === 7) headers[name] = buf.toString("utf8", at + 2, at + 2 + len);
      at += 2 + len;
    } else if (fixed[type] !== undefined) {
      need(fixed[type]);
      at += fixed[type];
    } else {
      throw corrupt(`unknown header value type ${type}`);
    }
  }
  return headers;
}

/**
 * Decodes messages as the bytes arrive (prelude: total length, header length,
 * prelude CRC32; then headers, payload and the message CRC32), checking both
 * checksums, so a large result streams instead of being held in memory.
 */
export async function* decodeEventStream(source: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<EventMessage> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    pending = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
    while (pending.length >= 12) {
      const total = pending.readUInt32BE(0);
      const headerLen = pending.readUInt32BE(4);
      if (crc32(pending.subarray(0, 8)) !== pending.readUInt32BE(8)) throw corrupt("prelude CRC mismatch");
      if (total < 16 || total > maxMessage || headerLen > total - 16) throw corrupt(`impossible message length ${total}`);
      if (pending.length < total) break;
      const message = pending.subarray(0, total);
      if (crc32(message.subarray(0, total - 4)) !== message.readUInt32BE(total - 4)) throw corrupt("message CRC mismatch");
      const headers = parseHeaders(message.subarray(12, 12 + headerLen));
      yield { headers, payload: Buffer.from(message.subarray(12 + headerLen, total - 4)) };
      pending = pending.subarray(total);
    }
  }
  if (pending.length > 0) throw corrupt(`the stream ended inside a message (${pending.length} bytes left)`);
}

/** Encodes one message (string headers only): for tests and fakes of the decoder's peer. */
export function encodeEventMessage(headers: Readonly<Record<string, string>>, payload: Buffer): Buffer {
  const hs = Buffer.concat(
    Object.entries(headers).map(([k, v]) => {
      const name = Buffer.from(k);
      const value = Buffer.from(v);
      const head = Buffer.alloc(1 + name.length + 3);
      head.writeUInt8(name.length, 0);
      name.copy(head, 1);
      head.writeUInt8(7, 1 + name.length);
      head.writeUInt16BE(value.length, 2 + name.length);
      return Buffer.concat([head, value]);
    }),
  );
  const total = 12 + hs.length + payload.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(hs.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const body = Buffer.concat([prelude, hs, payload]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([body, crc]);
}
