/**
 * The one line a clipanion usage error gets in our programs. Clipanion tries
 * each way of reading the words (which positional is which) and, when they
 * fail for different reasons, says "Command not found; did you mean one of:"
 * followed by the same command's usage once per reading. Our programs print
 * first lines only, so a missing option value (`mc cp a b --limit-upload`,
 * `kms cluster add HOST --api-key`) read as an empty suggestion or as "wrong
 * arguments". When every reading is of one command, the one that got
 * furthest (clipanion lists it first) says what is wrong.
 */
export function syntaxErrorLine(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const candidates = (err as { candidates?: ReadonlyArray<{ readonly usage: string; readonly reason: string | null }> }).candidates;
  const first = candidates?.[0];
  if (err.name === "UnknownSyntaxError" && candidates && first?.reason && candidates.every((c) => c.usage === first.usage)) return first.reason;
  return err.message.split("\n")[0] ?? "";
}
