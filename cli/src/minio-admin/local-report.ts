import { open, rename, rm, stat } from "node:fs/promises";

/**
 * What the air-gapped support commands save in the current directory: a
 * file written whole under a temporary name, synced, then renamed into place
 * (an older file of the same name kept as `<name>.<time>` when asked, as
 * upstream's moveFile backups do). A failure leaves nothing behind.
 */
export async function saveReport(name: string, data: Uint8Array, options: { backup?: boolean } = {}): Promise<void> {
  const temp = `.${name}.${process.pid}.tmp`;
  try {
    const fh = await open(temp, "wx", 0o600);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (options.backup) {
      const old = await stat(name).catch(() => undefined);
      if (old?.isFile()) await rename(name, `${name}.${fileStamp(new Date())}`);
      else if (old !== undefined) throw new Error(`${name} exists and is not a file`);
    }
    await rename(temp, name);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Go layout "2006-01-02T15-04-05.999999-07-00" in UTC (upstream `dateTimeFormatFilename`). */
export function fileStamp(d: Date): string {
  return `${d.toISOString().replace(/:/g, "-").replace(/\.(\d{3})Z$/, (_m, ms: string) => (ms === "000" ? "" : `.${ms.replace(/0+$/, "")}`))}+00-00`;
}

/** UTC `20060102150405`, upstream's report name stamp. */
export function reportStamp(d: Date): string {
  return d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** Go's json.Encoder output: compact, `<>&` and U+2028/2029 escaped, a newline after. */
export function goJson(value: unknown): string {
  return `${JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}
