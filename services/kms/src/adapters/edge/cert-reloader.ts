import { readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { createSecureContext, type SecureContextOptions } from "node:tls";

export interface TlsFiles {
  readonly cert: string;
  readonly key: string;
  readonly ca: string | undefined;
}

export function readTlsOptions(files: TlsFiles): SecureContextOptions {
  const options: SecureContextOptions = { cert: readFileSync(files.cert), key: readFileSync(files.key) };
  if (files.ca) options.ca = readFileSync(files.ca);
  // Throws when the key does not match the certificate or either is malformed.
  createSecureContext(options);
  return options;
}

function signature(files: TlsFiles): string {
  return [files.cert, files.key, files.ca]
    .map((f) => {
      if (!f) return "-";
      try {
        const s = statSync(f);
        return `${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return "missing";
      }
    })
    .join("|");
}

/**
 * Reloads the TLS certificate when its files change: directory watches (a
 * rename replaces the inode a file watch would follow), a periodic stat as
 * the fallback, and SIGHUP. New handshakes get the new context; open
 * connections keep theirs. A failed load keeps the old certificate.
 */
export function watchCertificates(files: TlsFiles, apply: (o: SecureContextOptions) => void, log: (line: string) => void, intervalMs = 1000) {
  let loaded = signature(files);
  let lastFailed = "";
  const check = (force = false): void => {
    const now = signature(files);
    if (!force && now === loaded) return;
    try {
      apply(readTlsOptions(files));
      loaded = now;
      lastFailed = "";
      log("kms: reloaded TLS certificate");
    } catch (err) {
      // Logged once per file state; a half-written file is retried next tick.
      if (now !== lastFailed) log(`kms: failed to reload TLS certificate: ${err instanceof Error ? err.message : String(err)}`);
      lastFailed = now;
    }
  };
  const names = new Set([files.cert, files.key, files.ca].flatMap((f) => (f ? [basename(f)] : [])));
  const watchers: FSWatcher[] = [];
  for (const dir of new Set([files.cert, files.key, files.ca].flatMap((f) => (f ? [dirname(f)] : [])))) {
    try {
      watchers.push(watch(dir, (_e, name) => {
        if (name === null || names.has(name.toString())) setTimeout(() => check(), 50).unref();
      }));
    } catch {
      // The periodic check still covers it.
    }
  }
  const timer = setInterval(() => check(), intervalMs);
  timer.unref();
  const onHup = () => check(true);
  process.on("SIGHUP", onHup);
  return {
    close(): void {
      clearInterval(timer);
      for (const w of watchers) w.close();
      process.off("SIGHUP", onHup);
    },
  };
}
