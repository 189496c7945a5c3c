import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runTool } from "./run-tool.js";

const lint = suite("static checks");

lint("should pass buf lint (STANDARD)", () => {
  const res = runTool("buf", ["lint"]);
  assert.is(res.status, 0, res.output);
});

lint("should pass eslint", () => {
  const res = runTool("eslint", ["--max-warnings", "0", "."]);
  assert.is(res.status, 0, res.output);
});

lint("should type-check every workspace (strict)", () => {
  const res = runTool("tsc", ["-p", "tsconfig.json"]);
  assert.is(res.status, 0, res.output);
});

lint("should reject I/O, Connect, NATS and gen imports in domain code", () => {
  const source = [
    'import { createClient } from "@connectrpc/connect";',
    'import { connect } from "@nats-io/transport-node";',
    'import { readFile } from "node:fs/promises";',
    'import { createServer } from "node:http";',
    'import { Socket } from "node:net";',
    'import { KeySchema } from "../../gen/kms/v1/key_pb.js";',
    "export const used = [createClient, connect, readFile, createServer, Socket, KeySchema];",
  ].join("\n");
  const res = runTool("eslint", ["--stdin", "--stdin-filename", "services/kms/src/domain/probe.ts"], source);
  assert.is.not(res.status, 0);
  for (const what of ["@connectrpc/connect", "@nats-io/transport-node", "node:fs/promises", "node:http", "node:net", "gen/kms"]) {
    assert.match(res.output, what, `${what} was not rejected`);
  }
  const adapter = runTool("eslint", ["--stdin", "--stdin-filename", "services/kms/src/adapters/probe.ts"], source);
  assert.is(adapter.status, 0, adapter.output);
});

lint.run();
