import { AppError } from "@mc/shared/errors";

/**
 * Damage found in a data directory: the file (relative to the directory the
 * caller names), the byte offset and what is wrong. The message is the
 * contract's line without the program prefix; `details` carry the parts so a
 * caller can name the file relative to its own data directory.
 */
export function damaged(file: string, offset: number, what: string): AppError {
  return new AppError("failed_precondition", `data directory is damaged: ${file} at offset ${offset}: ${what}`, {
    details: { damage: "true", file, offset: String(offset), what },
  });
}

export interface Damage {
  readonly file: string;
  readonly offset: number;
  readonly what: string;
}

/** The damage an error reports, or undefined when it is another failure. */
export function damageOf(err: unknown): Damage | undefined {
  if (!(err instanceof AppError) || err.details.damage !== "true") return undefined;
  return { file: err.details.file ?? "", offset: Number(err.details.offset ?? 0), what: err.details.what ?? "" };
}

/** The same damage with its file named under `prefix` (for example `raft/`). */
export function withPrefix(err: unknown, prefix: string): unknown {
  const d = damageOf(err);
  return d ? damaged(`${prefix}${d.file}`, d.offset, d.what) : err;
}
