// Compares what a block printed with the output the document shows. Two
// placeholders stand for what changes from run to run (ids, times, keys,
// ports): `<…>` (or `<...>`) inside a line matches one run of non-space
// characters; a line that is only `...` (or `…`) matches any number of lines,
// none included. Everything else must be equal, line by line; trailing spaces
// and trailing empty lines do not count.

const linesOf = (text: string): string[] => {
  const lines = text.split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
};

const isAnyLines = (l: string): boolean => l.trim() === "..." || l.trim() === "…";

function linePattern(expected: string): RegExp {
  const parts = expected.split(/<(?:…|\.\.\.)>/);
  return new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\S+")}$`, "u");
}

/** Undefined when `actual` matches `expected`; otherwise what did not match, for the failure message. */
export function matchOutput(expected: string, actual: string): string | undefined {
  const want = linesOf(expected);
  const got = linesOf(actual);
  const patterns = want.map((l) => (isAnyLines(l) ? undefined : linePattern(l)));
  // memo[i][j]: does want[i..] match got[j..]? The furthest want line reached names the mismatch.
  const memo = new Map<number, boolean>();
  let furthest = 0;
  const match = (i: number, j: number): boolean => {
    const key = i * (got.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    furthest = Math.max(furthest, i);
    let result: boolean;
    if (i === want.length) result = j === got.length;
    else {
      const p = patterns[i];
      if (p === undefined) result = match(i + 1, j) || (j < got.length && match(i, j + 1));
      else result = j < got.length && p.test(got[j] ?? "") && match(i + 1, j + 1);
    }
    memo.set(key, result);
    return result;
  };
  if (match(0, 0)) return undefined;
  const at = want[furthest];
  return at === undefined ? "the output goes on after the last line shown" : `no match for shown line ${furthest + 1}: ${JSON.stringify(at)}`;
}
