// Reads the command lines of help examples as a shell would split them:
// words with their quotes removed, and the `mc` invocations in a pipeline
// (`a | mc x`, `mc x && mc y`, `VAR=v mc x`).

/** Words of a shell line; `|`, `||`, `&&`, `;`, `<`, `>` and `>&2` outside quotes are words of their own. */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? "";
    if (ch === "'" || ch === '"') {
      const end = line.indexOf(ch, i + 1);
      word += line.slice(i + 1, end < 0 ? line.length : end);
      inWord = true;
      i = end < 0 ? line.length : end;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += line[++i] ?? "";
      inWord = true;
    } else if (/\s/.test(ch) || /[|;&<>]/.test(ch)) {
      if (inWord) out.push(word);
      word = "";
      inWord = false;
      if (/[|;&<>]/.test(ch)) {
        const op = /^(\|\||&&|>&2|[|;&<>])/.exec(line.slice(i))?.[0] ?? ch;
        out.push(op);
        i += op.length - 1;
      }
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(word);
  return out;
}

const separators = new Set(["|", "||", "&&", ";", "&"]);

/** The arguments of every `mc` run in a line (after `mc`, up to the next separator or redirection). */
export function mcInvocations(line: string): string[][] {
  const out: string[][] = [];
  let segment: string[] = [];
  const flush = (): void => {
    const words = segment;
    // Leading VAR=value assignments, then the program.
    let start = 0;
    while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start] ?? "")) start++;
    if (words[start] === "mc") {
      const args = words.slice(start + 1);
      const redirect = args.findIndex((w) => w === "<" || w === ">" || w === ">&2");
      out.push(redirect < 0 ? args : args.slice(0, redirect));
    }
    segment = [];
  };
  for (const word of shellWords(line)) {
    if (separators.has(word)) flush();
    else segment.push(word);
  }
  flush();
  return out;
}
