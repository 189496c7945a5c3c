/**
 * S3's key order: by UTF-8 bytes, which is code point order. JavaScript's
 * `<` compares UTF-16 units and puts an emoji before U+E000…U+FFFF.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done || q.done) return p.done ? (q.done ? 0 : -1) : 1;
    const d = (p.value.codePointAt(0) ?? 0) - (q.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}
