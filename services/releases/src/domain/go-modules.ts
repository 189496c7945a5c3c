import { AppError } from "@mc/shared/errors";

const pathPattern = /^[^\s]+$/;
const versionPattern = /^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

function fail(file: string, line: number, why: string): never {
  throw new AppError("invalid_argument", `${file}: line ${line}: ${why}`);
}

/**
 * Checks `go list -m all` text (contracts/releases.md §7.3): the main module
 * alone on line 1, then `<path> <version>` or a replacement, LF line ends, no
 * blank lines.
 */
export function checkGoModules(text: string, file = "gomod.txt"): void {
  if (text.includes("\r")) fail(file, text.slice(0, text.indexOf("\r")).split("\n").length, "CR line ends are not allowed");
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  if (lines.length === 0 || lines[0] === "") fail(file, 1, "the main module path is missing");
  lines.forEach((line, i) => {
    const n = i + 1;
    if (line === "") fail(file, n, "blank lines are not allowed");
    const fields = line.split(" ");
    if (fields.some((f) => f === "")) fail(file, n, "fields are separated by exactly one space");
    if (i === 0) {
      if (fields.length !== 1 || !pathPattern.test(line)) fail(file, n, "line 1 must be the main module path alone");
      return;
    }
    const [path = "", version = "", arrow, target, targetVersion, ...rest] = fields;
    if (!pathPattern.test(path)) fail(file, n, `bad module path '${path}'`);
    if (!versionPattern.test(version)) fail(file, n, `bad version '${version}' of ${path}`);
    if (arrow === undefined) return;
    if (arrow !== "=>" || target === undefined || rest.length > 0) fail(file, n, "a replacement is '<path> <version> => <path> <version>' or '=> <dir>'");
    if (targetVersion !== undefined && !versionPattern.test(targetVersion)) fail(file, n, `bad replacement version '${targetVersion}'`);
  });
}
