import { Code, ConnectError } from "@connectrpc/connect";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError, reasons, toAppError } from "./app-error.js";
import { errorTable, fromConnectError, httpStatusOfError, toConnectError } from "./error-mapping.js";

const table = suite("error table");

table("should map every reason to a Connect code and an HTTP status", () => {
  for (const reason of reasons) {
    assert.type(errorTable[reason].code, "number", reason);
    assert.ok(errorTable[reason].http >= 400 && errorTable[reason].http < 600, reason);
  }
});

table("should follow the code-style table :: REST-only statuses", () => {
  assert.equal(errorTable.method_not_allowed, { code: Code.Unimplemented, http: 405 });
  assert.equal(errorTable.payload_too_large, { code: Code.ResourceExhausted, http: 413 });
  assert.equal(errorTable.range_not_satisfiable, { code: Code.OutOfRange, http: 416 });
  assert.equal(errorTable.bad_gateway, { code: Code.Unavailable, http: 502 });
  assert.equal(errorTable.deadline_exceeded, { code: Code.DeadlineExceeded, http: 504 });
});

table.run();

// ---

const edges = suite("error conversion at the edges");

edges("should keep the exact reason across a Connect hop :: 413 shares a code with 429", () => {
  const sent = toConnectError(new AppError("payload_too_large", "body over 1 MiB"));
  assert.is(sent.code, Code.ResourceExhausted);
  const back = fromConnectError(sent);
  assert.is(back.reason, "payload_too_large");
  assert.is(back.message, "body over 1 MiB");
  assert.is(httpStatusOfError(sent), 413);
});

edges("should map a foreign ConnectError by its code :: no reason header", () => {
  const back = fromConnectError(new ConnectError("slow down", Code.ResourceExhausted));
  assert.is(back.reason, "resource_exhausted");
  assert.is(httpStatusOfError(new ConnectError("gone", Code.Unavailable)), 503);
  assert.is(httpStatusOfError(new ConnectError("nope", Code.Unimplemented)), 501);
});

edges("should hide the cause of unknown errors :: internal error", () => {
  const secret = new Error("open /var/lib/kms/root.key: permission denied");
  const sent = toConnectError(secret);
  assert.is(sent.code, Code.Internal);
  assert.is(sent.rawMessage, "internal error");
  assert.not.match(sent.message, "root.key");
  assert.is(toAppError(secret).cause, secret);
  assert.is(httpStatusOfError(secret), 500);
});

edges("should carry details as metadata :: client-safe fields", () => {
  const sent = toConnectError(new AppError("invalid_argument", "invalid query parameter 'limit'", { details: { field: "limit" } }));
  assert.is(sent.metadata.get("x-app-field"), "limit");
  assert.is(sent.metadata.get("x-app-reason"), "invalid_argument");
});

edges.run();
