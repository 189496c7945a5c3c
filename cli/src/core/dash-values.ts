/**
 * Options whose value is a server-made string that may begin with "-": RGW
 * version ids do about once in sixty-four. Clipanion would read such a value
 * as another option ("Not enough arguments to option --version-id"); Go's
 * flag parsing, which mc users know, takes the next word as the value.
 */
const dashValueOptions = new Set(["--version-id", "--vid"]);

/** Rewrites `--version-id -x` to `--version-id=-x` so the value stays a value. */
export function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? "";
    const next = argv[i + 1];
    if (word === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (dashValueOptions.has(word) && next !== undefined && next.startsWith("-")) {
      out.push(`${word}=${next}`);
      i++;
    } else out.push(word);
  }
  return out;
}
