import { readFileSync } from "node:fs";
import { mcError } from "../core/errors.js";
import type { AliasConfig, ConfigFile } from "./config-file.js";

export interface ResolvedAlias {
  readonly name: string;
  readonly url: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly sessionToken: string;
  readonly api: string;
  readonly path: string;
  readonly apiKey?: string;
  /** KMS alias authenticated by a client certificate (mTLS identity): its PEM files. */
  readonly clientCert?: string;
  readonly clientKey?: string;
  /** "env" for MC_HOST_*, else the config file's path. */
  readonly src: string;
}

export const aliasNamePattern = /^[a-zA-Z][a-zA-Z0-9-_]*$/;

/** `https://ACCESS:SECRET[:TOKEN]@host[:port]` of MC_HOST_<alias>. */
export function parseHostUrl(name: string, value: string): ResolvedAlias {
  let url: URL;
  try {
    url = new URL(value);
  } catch (err) {
    throw mcError(`Invalid value of MC_HOST_${name}.`, err, "invalid_argument");
  }
  const [secret = "", ...token] = decodeURIComponent(url.password).split(":");
  const base = `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "")}`;
  return {
    name,
    url: base,
    accessKey: decodeURIComponent(url.username),
    secretKey: secret,
    sessionToken: token.join(":"),
    api: "S3v4",
    path: "auto",
    src: "env",
  };
}

function fromEnvLines(env: Readonly<Record<string, string | undefined>>): Map<string, ResolvedAlias> {
  const out = new Map<string, ResolvedAlias>();
  const file = env["MC_CONFIG_ENV_FILE"];
  if (file) {
    for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
      const m = /^\s*MC_HOST_([^=\s]+)\s*=\s*(.+?)\s*$/.exec(line);
      if (m?.[1] && m[2]) out.set(m[1], parseHostUrl(m[1], m[2].replace(/^["']|["']$/g, "")));
    }
  }
  return out;
}

/** Alias lookup order: MC_HOST_<alias>, then MC_CONFIG_ENV_FILE, then config.json (cmd/config.go). */
export function resolveAliases(config: ConfigFile, configFilePath: string, env: Readonly<Record<string, string | undefined>>): Map<string, ResolvedAlias> {
  const out = new Map<string, ResolvedAlias>();
  for (const [name, a] of Object.entries(config.aliases)) out.set(name, fromConfig(name, a, configFilePath));
  for (const [name, alias] of fromEnvLines(env)) out.set(name, alias);
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith("MC_HOST_") && value) out.set(key.slice(8), parseHostUrl(key.slice(8), value));
  }
  return out;
}

export function fromConfig(name: string, a: AliasConfig, src: string): ResolvedAlias {
  return {
    name,
    url: a.url,
    accessKey: a.accessKey ?? "",
    secretKey: a.secretKey ?? "",
    sessionToken: a.sessionToken ?? "",
    api: a.api ?? "S3v4",
    path: a.path ?? "auto",
    ...(a.apiKey === undefined ? {} : { apiKey: a.apiKey }),
    ...(typeof a["clientCert"] === "string" ? { clientCert: a["clientCert"] } : {}),
    ...(typeof a["clientKey"] === "string" ? { clientKey: a["clientKey"] } : {}),
    src,
  };
}
