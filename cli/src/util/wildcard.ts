/** minio/pkg wildcard.Match: `*` spans anything (also `/`), `?` exactly one character, no classes; "" matches only "". */
export function flatMatch(pattern: string, text: string): boolean {
  if (pattern === "") return text === "";
  if (pattern === "*") return true;
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

/** Go path.Match: `*` does not cross `/`, `?` one character, `[a-z]` / `[^…]` classes, `\` escapes. */
export function shellMatch(pattern: string, text: string): boolean {
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? "";
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "\\" && i + 1 < pattern.length) re += escape(pattern[++i] ?? "");
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end === -1) return false;
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith("^") || body.startsWith("!");
      if (negate) body = body.slice(1);
      re += `[${negate ? "^" : ""}${body.replace(/\\/g, "\\\\").replace(/]/g, "\\]")}]`;
      i = end;
    } else re += escape(c);
  }
  try {
    return new RegExp(`${re}$`, "s").test(text);
  } catch {
    return false;
  }
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
