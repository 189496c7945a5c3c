import { suite } from "uvu";
import * as assert from "uvu/assert";
import { AppError } from "./app-error.js";
import { subjectMatches } from "./bus/subject-match.js";
import { queueOfPath, subjectOfPath } from "./nats-subject.js";

const subjects = suite("subjects");

subjects("should map an RPC path to its service subject and queue", () => {
  assert.is(subjectOfPath("/releases.v1.ReleaseService/ListReleases"), "releases.v1.ReleaseService.ListReleases");
  assert.is(queueOfPath("/releases.v1.ReleaseService/ListReleases"), "releases.v1.ReleaseService");
});

subjects("should append cluster and node :: node-addressed", () => {
  const s = subjectOfPath("/consensus.v1.ConsensusService/AppendEntries", { clusterId: "c1", nodeId: "kms-2" });
  assert.is(s, "consensus.v1.ConsensusService.AppendEntries.c1.kms-2");
});

subjects("should reject tokens that would change the subject :: dots and wildcards", () => {
  for (const nodeId of ["a.b", "*", ">", "", "a b"]) {
    assert.throws(() => subjectOfPath("/x.v1.S/M", { clusterId: "c", nodeId }), (e: unknown) => e instanceof AppError && e.reason === "invalid_argument");
  }
  assert.throws(() => subjectOfPath("not/a/path"), (e: unknown) => e instanceof AppError);
});

subjects.run();

// ---

const matching = suite("subject matching");

matching("should match NATS wildcards", () => {
  assert.ok(subjectMatches("a.b.c", "a.b.c"));
  assert.ok(subjectMatches("a.*.c", "a.x.c"));
  assert.ok(subjectMatches("a.>", "a.b.c"));
  assert.not.ok(subjectMatches("a.>", "a"));
  assert.not.ok(subjectMatches("a.*", "a.b.c"));
  assert.not.ok(subjectMatches("a.b", "a.b.c"));
  assert.not.ok(subjectMatches("a.b.c", "a.b"));
});

matching.run();
