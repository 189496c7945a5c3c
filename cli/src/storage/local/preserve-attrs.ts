import { readFileSync, type BigIntStats } from "node:fs";
import { chmod, chown, stat, utimes } from "node:fs/promises";

/** Local file attributes as mc carries them in `X-Amz-Meta-Mc-Attrs`. */
export interface McAttrs {
  readonly atime?: { readonly s: number; readonly ns: number };
  readonly mtime?: { readonly s: number; readonly ns: number };
  readonly mode?: number;
  readonly uid?: number;
  readonly gid?: number;
}

export const mcAttrsHeader = "X-Amz-Meta-Mc-Attrs";

let names: { users: Map<number, string>; groups: Map<number, string> } | undefined;

/** uid/gid -> name from /etc/passwd and /etc/group, read once ("" when unknown). */
function nameOf(kind: "users" | "groups", id: number): string {
  if (!names) {
    const table = (file: string): Map<number, string> => {
      try {
        return new Map(readFileSync(file, "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(":")).map((f): [number, string] => [Number(f[2]), f[0] ?? ""]));
      } catch {
        return new Map();
      }
    };
    names = { users: table("/etc/passwd"), groups: table("/etc/group") };
  }
  return names[kind].get(id) ?? "";
}

const split = (ns: bigint): string => `${ns / 1_000_000_000n}#${ns % 1_000_000_000n}`;

/** `atime:<s>#<ns>/gid:N/gname:x/mode:N/mtime:<s>#<ns>/uid:N/uname:x` for a local file. */
export async function mcAttrsOf(path: string): Promise<string> {
  return mcAttrsFromStat(await stat(path, { bigint: true }));
}

/** The same, from a stat already made. */
export function mcAttrsFromStat(st: BigIntStats): string {
  const uid = Number(st.uid);
  const gid = Number(st.gid);
  return `atime:${split(st.atimeNs)}/gid:${gid}/gname:${nameOf("groups", gid)}/mode:${st.mode}/mtime:${split(st.mtimeNs)}/uid:${uid}/uname:${nameOf("users", uid)}`;
}

/** The fields of an `Mc-Attrs` value that are well formed; others are left out. */
export function parseMcAttrs(text: string): McAttrs {
  const fields = new Map(text.split("/").map((part): [string, string] => [part.slice(0, part.indexOf(":")), part.slice(part.indexOf(":") + 1)]));
  const time = (v: string | undefined): { s: number; ns: number } | undefined => {
    const m = /^(\d+)#(\d{1,9})$/.exec(v ?? "");
    return m ? { s: Number(m[1]), ns: Number(m[2]) } : undefined;
  };
  const int = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);
  const out: { -readonly [K in keyof McAttrs]: McAttrs[K] } = {};
  const atime = time(fields.get("atime"));
  const mtime = time(fields.get("mtime"));
  const mode = int(fields.get("mode"));
  const uid = int(fields.get("uid"));
  const gid = int(fields.get("gid"));
  if (atime) out.atime = atime;
  if (mtime) out.mtime = mtime;
  if (mode !== undefined) out.mode = mode;
  if (uid !== undefined) out.uid = uid;
  if (gid !== undefined) out.gid = gid;
  return out;
}

/**
 * Gives a downloaded file its original times and permission bits; the owner
 * too when running as root (anyone else may not give files away).
 */
export async function applyMcAttrs(path: string, attrs: McAttrs): Promise<void> {
  if (attrs.mode !== undefined) await chmod(path, attrs.mode & 0o7777);
  if (attrs.mtime) {
    const seconds = (t: { s: number; ns: number }): number => t.s + t.ns / 1e9;
    await utimes(path, seconds(attrs.atime ?? attrs.mtime), seconds(attrs.mtime));
  }
  if (process.getuid?.() === 0 && attrs.uid !== undefined && attrs.gid !== undefined) await chown(path, attrs.uid, attrs.gid);
}
