import { Code, ConnectError } from "@connectrpc/connect";
import { AppError, fromConnectError } from "@mc/shared";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { batchOutcome } from "./forward-service.js";
import { classifyFailure, noLeader, outcomeUnknown, overwrittenMessage } from "./write-outcome.js";

const test = suite("write outcomes: what is certainly not applied");

test("only an entry another leader overwrote is 'not appended' among the aborted; a canceled call may have landed", () => {
  assert.is(classifyFailure(new AppError("aborted", overwrittenMessage)), "not_appended");
  // Connect's Canceled maps back to the `aborted` reason: the command may already be in the leader's log.
  assert.is(classifyFailure(fromConnectError(new ConnectError("canceled by the client", Code.Canceled))), "unknown");
  assert.is(classifyFailure(new AppError("unavailable", "not the leader")), "not_appended");
  assert.is(classifyFailure(new AppError("unavailable", "lost contact with the service")), "unknown");
  assert.is(classifyFailure(new AppError("internal", "disk full")), "other");
});

const ok = <T>(value: T): PromiseSettledResult<T> => ({ status: "fulfilled", value });
const no = (reason: unknown): PromiseSettledResult<never> => ({ status: "rejected", reason });
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
};
const entry = (index: number) => ({ index, term: 2 });

test("a forwarded batch is 'not applied' only when none of its commands may have been", () => {
  assert.equal(batchOutcome([ok(entry(5)), ok(entry(6))]), [entry(5), entry(6)]);
  // Every command refused before any log held it: the refusal stands for all.
  const refused = thrown(() => batchOutcome([no(new AppError("unavailable", "not the leader")), no(new AppError("aborted", overwrittenMessage))]));
  assert.is((refused as AppError).message, "not the leader");
  // The first committed, the second overwritten: the one error sent for both must not say "not applied".
  const mixed = thrown(() => batchOutcome([ok(entry(5)), no(new AppError("aborted", overwrittenMessage))])) as AppError;
  assert.is(classifyFailure(mixed), "unknown");
  assert.is(mixed.message, outcomeUnknown().message);
  // One refused, one timed out: unknown for both.
  const partly = thrown(() => batchOutcome([no(noLeader()), no(new AppError("deadline_exceeded", "entry 6 not done within 5000 ms; the outcome is unknown"))])) as AppError;
  assert.is(classifyFailure(partly), "unknown");
  // A real error of every command passes as it is.
  assert.is((thrown(() => batchOutcome([no(new AppError("internal", "disk full"))])) as AppError).reason, "internal");
});

test.run();
