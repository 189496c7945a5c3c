// Node engine ranges as npm packages write them (`>=18`, `>= 18.x`, `^20.19.0`,
// `20 || >=22`), enough to tell whether a version fits: what npm's EBADENGINE
// warning decides, without installing anything.

type Version = readonly [number, number, number];

const parse = (text: string): Version => {
  const [a = 0, b = 0, c = 0] = text
    .replace(/^v/, "")
    .split(".")
    .map((p) => (p === "x" || p === "*" ? 0 : Number(p)));
  return [a, b, c];
};

const compare = (x: Version, y: Version): number => x[0] - y[0] || x[1] - y[1] || x[2] - y[2];

function fitsOne(v: Version, alt: string): boolean {
  const a = alt.replace(/\s+/g, "");
  if (a === "" || a === "*") return true;
  if (a.startsWith(">=")) return compare(v, parse(a.slice(2))) >= 0;
  if (a.startsWith("^")) {
    const base = parse(a.slice(1));
    return compare(v, base) >= 0 && v[0] === base[0];
  }
  if (/^\d+(\.(\d+|x))?$/.test(a)) {
    const parts = a.split(".");
    return v[0] === Number(parts[0]) && (parts[1] === undefined || parts[1] === "x" || v[1] === Number(parts[1]));
  }
  throw new Error(`engine range not understood: ${alt}`);
}

/** Whether Node `version` (e.g. "20.19.0") fits `range`. */
export const nodeFits = (version: string, range: string): boolean => range.split("||").some((alt) => fitsOne(parse(version), alt));

/** The lowest version of each alternative of a range like `^20.19.0 || ^22.13.0 || >=24`. */
export const lowestVersions = (range: string): string[] => range.split("||").map((alt) => parse(alt.replace(/^[\s^>=]+/, "").trim()).join("."));
