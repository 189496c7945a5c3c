import { AppError } from "@mc/shared/errors";
import { invalidBody } from "../../domain/results.js";

/** Helpers that read a JSON request body strictly: any mismatch is `400 invalid request body`. */
export type Json = Record<string, unknown>;

const b64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function objectOf(body: Uint8Array, optional: boolean): Json {
  const text = Buffer.from(body).toString("utf8");
  if (text.trim() === "" && optional) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalidBody();
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalidBody();
  return v as Json;
}

export function optString(o: Json, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidBody();
  return v;
}

export function reqString(o: Json, key: string): string {
  const v = optString(o, key);
  if (v === undefined) throw invalidBody();
  return v;
}

export function optBool(o: Json, key: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalidBody();
  return v;
}

export function optInt(o: Json, key: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) throw invalidBody();
  return v;
}

export function optBytes(o: Json, key: string): Uint8Array | undefined {
  const v = optString(o, key);
  if (v === undefined) return undefined;
  if (!b64.test(v)) throw invalidBody();
  return new Uint8Array(Buffer.from(v, "base64"));
}

export function reqBytes(o: Json, key: string): Uint8Array {
  const v = optBytes(o, key);
  if (v === undefined) throw invalidBody();
  return v;
}

export function stringList(o: Json, key: string): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw invalidBody();
  return v as string[];
}

export function toB64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** `?version=N` and `?limit=N`: a decimal integer up to `max`, else 400 naming the parameter (contract §5). */
export function queryInt(query: URLSearchParams, name: string, max = 0xffffffff): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > max) throw new AppError("invalid_argument", `invalid query parameter '${name}'`);
  return Number(value);
}
