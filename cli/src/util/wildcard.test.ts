import { suite } from "uvu";
import * as assert from "uvu/assert";
import { flatMatch, shellMatch } from "./wildcard.js";

const flat = suite("flat wildcard (--path, --ignore, mirror --exclude)");

flat("should let * span slashes", () => {
  assert.ok(flatMatch("*.txt", "a/b/c.txt"));
  assert.ok(flatMatch("a/*", "a/b/c"));
});

flat("should match ? as exactly one character", () => {
  assert.ok(flatMatch("a?c", "abc"));
  assert.not.ok(flatMatch("a?c", "ac"));
});

flat("should match the empty pattern only against the empty string", () => {
  assert.ok(flatMatch("", ""));
  assert.not.ok(flatMatch("", "a"));
});

flat("should be case-sensitive and have no classes", () => {
  assert.not.ok(flatMatch("*.TXT", "a.txt"));
  assert.not.ok(flatMatch("[ab]", "a"));
  assert.ok(flatMatch("[ab]", "[ab]"));
});

flat.run();

// ---

const shell = suite("shell wildcard (find --name)");

shell("should not let * cross a slash", () => {
  assert.ok(shellMatch("*.go", "console.go"));
  assert.not.ok(shellMatch("*.go", "pkg/console.go"));
});

shell("should support classes, negation and escapes", () => {
  assert.ok(shellMatch("[a-c]x", "bx"));
  assert.not.ok(shellMatch("[^a-c]x", "bx"));
  assert.ok(shellMatch("\\*x", "*x"));
  assert.not.ok(shellMatch("\\*x", "ax"));
});

shell.run();
