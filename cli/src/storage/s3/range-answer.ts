// What a ranged GET's answer head says, for range-connection.ts: whether the
// body that follows is exactly the range asked for, and whether the
// connection may carry the next request. Pure, so odd heads are unit-tested.

export interface RangeAnswer {
  /** A 206 whose body is exactly `length` bytes from `offset` (Content-Length and Content-Range agree). */
  readonly fits: boolean;
  /** HTTP/1.1 without `Connection: close`. */
  readonly keepAlive: boolean;
}

const refused: RangeAnswer = { fits: false, keepAlive: false };
const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;
const headerLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/**
 * Reads the head (without its closing blank line). Anything short of a plain
 * 206 for this range, spelled as a well-behaved server spells it, does not
 * fit: chunked bodies, a second Content-Length, a folded or malformed line.
 */
export function readRangeAnswer(head: string, offset: number, length: number): RangeAnswer {
  const lines = head.split("\r\n");
  const status = statusLine.exec(lines[0] ?? "");
  if (!status) return refused;
  const fields = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const m = headerLine.exec(line);
    if (!m?.[1] || m[2] === undefined || /[\0-\x08\x0a-\x1f\x7f]/.test(m[2])) return refused;
    const name = m[1].toLowerCase();
    if (name === "content-length" || name === "content-range" || name === "transfer-encoding") {
      if (fields.has(name)) return refused;
    }
    fields.set(name, fields.has(name) ? `${fields.get(name) ?? ""}, ${m[2]}` : m[2]);
  }
  const keepAlive = status[1] === "1" && !/(^|,)\s*close\s*(,|$)/i.test(fields.get("connection") ?? "");
  if (status[2] !== "206" || fields.has("transfer-encoding")) return { fits: false, keepAlive };
  const last = offset + length - 1;
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(fields.get("content-range") ?? "");
  const fits = fields.get("content-length") === String(length) && range?.[1] === String(offset) && range[2] === String(last);
  return { fits, keepAlive };
}
