/**
 * Argon2's compression function G as a tiny WebAssembly module, generated
 * here byte by byte (no toolchain): libsodium does not export it, and written
 * in JavaScript on 32-bit halves it is about ten times slower than with the
 * 64-bit integers WebAssembly has. The module exports its memory and
 * `compress(x, y, out, xor)` on byte offsets into it:
 * out = P(X ⊕ Y) ⊕ X ⊕ Y (⊕ out when xor ≠ 0). Bytes 0..2047 are its scratch.
 */
export const blamkaScratchBytes = 2048;

const op = {
  get: 0x20, set: 0x21, i32const: 0x41, i64const: 0x42, load: 0x29, store: 0x37,
  add: 0x7c, mul: 0x7e, and: 0x83, xor: 0x85, shl: 0x86, rotr: 0x8a, if: 0x04, end: 0x0b,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && (byte & 0x40) === 0) || (n === -1n && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const vec = (items: readonly number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => vec([...Buffer.from(s, "utf8")].map((b) => [b]));

function body(): number[] {
  const [x, y, out, xorFlag] = [0, 1, 2, 3];
  const [va, vb, vc, vd, t] = [4, 5, 6, 7, 8]; // i64 locals
  const code: number[] = [];
  const get = (i: number): number[] => [op.get, ...uleb(i)];
  const set = (i: number): number[] => [op.set, ...uleb(i)];
  const mem = (opcode: number, offset: number): number[] => [opcode, 3, ...uleb(offset)];
  const r = 0, q = 1024; // scratch: R = X ⊕ Y, and Q, the block being permuted
  for (let i = 0; i < 128; i++) {
    code.push(...get(x), ...mem(op.load, 8 * i), ...get(y), ...mem(op.load, 8 * i), op.xor, ...set(t));
    code.push(op.i32const, 0, ...get(t), ...mem(op.store, r + 8 * i), op.i32const, 0, ...get(t), ...mem(op.store, q + 8 * i));
  }
  const low = [op.i64const, ...sleb(0xffffffffn), op.and];
  // a = a + b + 2·lo(a)·lo(b)
  const blamka = (a: number, b: number): number[] => [...get(a), ...get(b), op.add, ...get(a), ...low, ...get(b), ...low, op.mul, op.i64const, 1, op.shl, op.add, ...set(a)];
  const rot = (d: number, a: number, n: number): number[] => [...get(d), ...get(a), op.xor, op.i64const, ...sleb(BigInt(n)), op.rotr, ...set(d)];
  const gb = (w: readonly number[]): number[] => [
    ...w.flatMap((word, i) => [op.i32const, 0, ...mem(op.load, q + 8 * word), ...set([va, vb, vc, vd][i] ?? va)]),
    ...blamka(va, vb), ...rot(vd, va, 32), ...blamka(vc, vd), ...rot(vb, vc, 24),
    ...blamka(va, vb), ...rot(vd, va, 16), ...blamka(vc, vd), ...rot(vb, vc, 63),
    ...w.flatMap((word, i) => [op.i32const, 0, ...get([va, vb, vc, vd][i] ?? va), ...mem(op.store, q + 8 * word)]),
  ];
  const p = (w: readonly number[]): void => {
    for (const idx of [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]]) {
      code.push(...gb(idx.map((i) => w[i] ?? 0)));
    }
  };
  for (let row = 0; row < 8; row++) p(Array.from({ length: 16 }, (_, i) => 16 * row + i));
  for (let col = 0; col < 8; col++) p(Array.from({ length: 16 }, (_, i) => 2 * col + (i >> 1) * 16 + (i & 1)));
  // out = Q ⊕ R (⊕ out with xor)
  for (let i = 0; i < 128; i++) {
    code.push(op.i32const, 0, ...mem(op.load, q + 8 * i), op.i32const, 0, ...mem(op.load, r + 8 * i), op.xor, ...set(t));
    code.push(...get(xorFlag), op.if, 0x40, ...get(t), ...get(out), ...mem(op.load, 8 * i), op.xor, ...set(t), op.end);
    code.push(...get(out), ...get(t), ...mem(op.store, 8 * i));
  }
  code.push(op.end);
  const locals = vec([[5, 0x7e]]);
  const fn = [...locals, ...code];
  return [...uleb(fn.length), ...fn];
}

export interface BlamkaInstance {
  readonly memory: WebAssembly.Memory;
  compress(x: number, y: number, out: number, xor: number): void;
}

let shared: BlamkaInstance | undefined;

/**
 * The one instance of the process, with at least `bytes` of memory. It is
 * kept, like libsodium's heap: touching fresh pages costs far more than the
 * compression itself (a 64 MiB derivation is ~8× slower on new memory), and
 * callers wipe what they used.
 */
export function blamka(bytes: number): BlamkaInstance {
  if (shared === undefined) {
    const module = new WebAssembly.Module(moduleBytes());
    const exports = new WebAssembly.Instance(module).exports as { memory: WebAssembly.Memory; compress: (x: number, y: number, out: number, xor: number) => void };
    shared = { memory: exports.memory, compress: exports.compress };
  }
  const missing = Math.ceil(bytes / 65536) - shared.memory.buffer.byteLength / 65536;
  if (missing > 0) shared.memory.grow(missing);
  return shared;
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec([[0x7f], [0x7f], [0x7f], [0x7f]]), 0x00]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[...name("memory"), 0x02, 0], [...name("compress"), 0x00, 0]])),
    ...section(10, vec([body()])),
  ]);
}
