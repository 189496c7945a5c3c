import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "@mc/shared/errors";
import { checkGoModules } from "./go-modules.js";

const gomod = suite("go modules text");

gomod("should accept go list -m all output :: pseudo-versions, +incompatible, replacements", () => {
  checkGoModules(
    [
      "github.com/minio/mc",
      "github.com/a/b v1.2.3",
      "github.com/c/d v0.0.0-20240101120000-abcdef123456",
      "github.com/e/f v2.0.0+incompatible",
      "golang.org/x/sys v0.25.0 => golang.org/x/sys v0.26.0",
      "example.com/local v1.0.0 => ../local",
      "",
    ].join("\n"),
  );
});

gomod("should name the line of the first problem", () => {
  const cases: Array<[string, string]> = [
    ["", "line 1: the main module path is missing"],
    ["main v1.0.0\n", "line 1: line 1 must be the main module path alone"],
    ["main\n\nx v1.0.0\n", "line 2: blank lines are not allowed"],
    ["main\nx 1.0.0\n", "line 2: bad version '1.0.0' of x"],
    ["main\nx v1.0.0 -> y v1.0.0\n", "line 2: a replacement is"],
    ["main\r\nx v1.0.0\r\n", "CR line ends are not allowed"],
    ["main\nx  v1.0.0\n", "line 2: fields are separated by exactly one space"],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => checkGoModules(text, "gomod.txt"), (e: unknown) => e instanceof AppError && e.message.includes(message), message);
  }
});

gomod.run();
