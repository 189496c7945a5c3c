import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { mcError } from "../../core/errors.js";

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** `--resolve HOST[:PORT]=IP` (repeatable, MC_RESOLVE comma separated) as a host → IP table. */
export function parseResolve(entries: readonly string[]): Map<string, string> {
  const table = new Map<string, string>();
  for (const entry of entries) {
    const m = /^([^=]+?)(?::\d+)?=(.+)$/.exec(entry.trim());
    if (!m?.[1] || !m[2] || isIP(m[2]) === 0) throw mcError(`Invalid --resolve \`${entry}\`; use HOST[:PORT]=IP.`, undefined, "invalid_argument");
    table.set(m[1].toLowerCase(), m[2]);
  }
  return table;
}

/** A DNS lookup that answers from the table first (the port is not known at lookup time, so it is not matched). */
export function createLookup(table: ReadonlyMap<string, string>): Lookup | undefined {
  if (table.size === 0) return undefined;
  return (hostname, options, callback) => {
    const ip = table.get(hostname.toLowerCase());
    if (ip === undefined) {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err, []);
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        callback(null, first?.address ?? "", first?.family ?? 4);
      });
      return;
    }
    const family = isIP(ip);
    if (options.all) callback(null, [{ address: ip, family }]);
    else callback(null, ip, family);
  };
}
