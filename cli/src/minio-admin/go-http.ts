import { STATUS_CODES } from "node:http";

/** Go's net/http StatusText where it differs from Node's table. */
const goTexts: Readonly<Record<number, string>> = {
  413: "Request Entity Too Large",
  414: "Request URI Too Long",
  416: "Requested Range Not Satisfiable",
  418: "I'm a teapot",
  422: "Unprocessable Entity",
  425: "Too Early",
};

/** Go `http.StatusText(code)`: "" for an unknown code. */
export function statusText(code: number): string {
  return goTexts[code] ?? STATUS_CODES[code] ?? "";
}

/** Go `len()` of a string: its UTF-8 bytes. */
export const goLen = (s: string): number => Buffer.byteLength(s, "utf8");

/** Go `fmt.Sprintf("%*s", width, " ")`: the space padded to |width| (at least one). */
export const goPad = (width: number): string => " ".repeat(Math.max(1, Math.abs(width)));

/** Go `fmt.Sprintf("%2s", s)`: right-aligned in at least two runes. */
export const pad2 = (s: string): string => ([...s].length < 2 ? " ".repeat(2 - [...s].length) + s : s);
