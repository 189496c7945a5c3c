// mc admin group … against a recording endpoint, compared request by request
// with madmin-go v2.0.7 driven as upstream mc drives it (issue 25).
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { jsonLines } from "../mc/mc-runner.js";
import { cannedAnswer } from "./go-driver.js";
import { differential, startAdminFixture } from "./fixture.js";
import type { Answer, Recorded } from "./recorder.js";

const fx = await startAdminFixture();
const [groupDesc, groupList] = await Promise.all([cannedAnswer("group-desc"), cannedAnswer("group-list")]);
const answers = (req: Recorded): Answer => {
  const p = req.path.replace("/minio/admin/v3", "");
  if (p === "/group") return { body: groupDesc };
  if (p === "/groups") return { body: groupList };
  return {};
};

const T = suite("mc admin group (differential against madmin-go)");
T.after(() => fx.stop());

T("group add|remove: PUT update-group-members with madmin's plain JSON body; real mc's text", async () => {
  const add = await differential(fx, { op: "group-add", args: { group: "all cents+#", members: ["fivecent", "tencent"] }, mc: ["admin", "group", "add", "minio", "all cents+#", "fivecent", "tencent"], responder: answers });
  assert.equal(add.requests.map((q) => [q.method, q.path, q.body]), [["PUT", "/minio/admin/v3/update-group-members", { group: "all cents+#", members: ["fivecent", "tencent"], groupStatus: "", isRemove: false }]]);
  assert.is(add.ours.stdout, "Added members `fivecent,tencent` to group `all cents+#` successfully.\n");
  const rmm = await differential(fx, { op: "group-remove", args: { group: "allcents", members: ["tencent"] }, mc: ["admin", "group", "remove", "minio", "allcents", "tencent"], responder: answers });
  assert.is(rmm.ours.stdout, "Removed members {tencent} from group allcents successfully.\n");
  const rmg = await differential(fx, { op: "group-remove", args: { group: "allcents" }, mc: ["admin", "group", "rm", "minio", "allcents"], responder: answers });
  assert.equal(rmg.requests[0]?.body, { group: "allcents", members: [], groupStatus: "", isRemove: true });
  assert.is(rmg.ours.stdout, "Removed group allcents successfully.\n");
  const j = await fx.mc(["admin", "group", "add", "minio", "ops", "alice", "--json"]);
  assert.equal(jsonLines(j.stdout), [{ status: "success", groupName: "ops", members: ["alice"] }]);
});

T("group info|list|enable|disable: the same requests; canned answers in real mc's text and JSON", async () => {
  const info = await differential(fx, { op: "group-info", args: { group: "ops" }, mc: ["admin", "group", "info", "minio", "ops"], responder: answers });
  assert.equal(info.requests.map((q) => [q.path, q.query]), [["/minio/admin/v3/group", [["group", "ops"]]]]);
  assert.is(info.ours.stdout, "Group: ops\nStatus: enabled\nPolicy: consoleAdmin,diagnostics\nMembers: alice\n");
  const ij = await fx.mc(["admin", "group", "info", "minio", "ops", "--json"]);
  assert.equal(jsonLines(ij.stdout), [{ status: "success", groupName: "ops", members: ["alice"], groupStatus: "enabled", groupPolicy: "consoleAdmin,diagnostics" }]);
  const list = await differential(fx, { op: "group-list", mc: ["admin", "group", "ls", "minio"], responder: answers });
  assert.is(list.ours.stdout, "allcents\nops\n");
  const lj = await fx.mc(["admin", "group", "list", "minio", "--json"]);
  assert.equal(jsonLines(lj.stdout), [{ status: "success", groups: ["allcents", "ops"] }]);
  for (const [verb, status, text] of [["enable", "enabled", "Enabled"], ["disable", "disabled", "Disabled"]] as const) {
    const r = await differential(fx, { op: "group-status", args: { group: "ops", status }, mc: ["admin", "group", verb, "minio", "ops"], responder: answers });
    assert.equal(r.requests.map((q) => [q.method, q.path, q.query]), [["PUT", "/minio/admin/v3/set-group-status", [["group", "ops"], ["status", status]]]]);
    assert.is(r.ours.stdout, `${text} group \`ops\` successfully.\n`);
  }
});

T("wrong arguments: usage errors, nothing sent", async () => {
  fx.recorder.clear();
  for (const args of [["admin", "group", "add", "minio", "ops"], ["admin", "group", "info", "minio"], ["admin", "group", "list"]]) {
    const r = await fx.mc(args);
    assert.is(r.code, 1, args.join(" "));
    assert.match(r.stderr, /^mc: <ERROR> /);
  }
  assert.is(fx.recorder.requests.length, 0);
});

T.run();
