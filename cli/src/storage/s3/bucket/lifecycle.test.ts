import { suite } from "uvu";
import * as assert from "uvu/assert";
import { lifecycleFromXml, lifecycleToXml, validateLifecycle } from "./lifecycle.js";
import { applyRuleFlags, ruleFilter } from "./lifecycle-rule.js";

const xml =
  '<?xml version="1.0" encoding="UTF-8"?><LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
  "<Rule><ID>007</ID><Filter><And><Prefix>a &amp; b/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag></And></Filter><Status>Enabled</Status>" +
  "<Transition><Days>1</Days><StorageClass>COLD</StorageClass></Transition><Transition><Days>9</Days><StorageClass>GLACIER</StorageClass></Transition>" +
  "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration></Rule></LifecycleConfiguration>";

// ---

const convert = suite("lifecycle XML <-> JSON");

convert("should keep text IDs, numbers, booleans, lists and escaping :: round trip", () => {
  const config = lifecycleFromXml(xml);
  assert.equal(config.Rules[0], {
    ID: "007",
    Filter: { And: { Prefix: "a & b/", Tags: [{ Key: "k", Value: "v" }] } },
    Status: "Enabled",
    Transition: [
      { Days: 1, StorageClass: "COLD" },
      { Days: 9, StorageClass: "GLACIER" },
    ],
    Expiration: { ExpiredObjectDeleteMarker: true },
  });
  assert.equal(lifecycleFromXml(lifecycleToXml(config)), config);
  assert.match(lifecycleToXml(config), /<Prefix>a &amp; b\/<\/Prefix><Tag><Key>k<\/Key>/);
});

convert("should read an empty configuration as no rules, and another document as unsupported", () => {
  assert.equal(lifecycleFromXml("<LifecycleConfiguration/>"), { Rules: [] });
  assert.throws(() => lifecycleFromXml("<ListBucketResult><Name>b</Name></ListBucketResult>"), /Bucket lifecycle configuration is not supported by this server/);
});

convert.run();

// ---

const validate = suite("validateLifecycle");

validate("should name what is wrong :: bad documents", () => {
  const cases: [unknown, RegExp][] = [
    [[], /expected a JSON object/],
    [{ Rules: {} }, /must be a list/],
    [{ Rules: [], Extra: 1 }, /unknown field `Extra`/],
    [{ Rules: [{ Status: "Enabled", Expiration: { Days: 1 } }] }, /rule 1 has no `ID`/],
    [{ Rules: [{ ID: "x", Status: "Enabled" }] }, /has no action/],
  ];
  for (const [doc, re] of cases) assert.throws(() => validateLifecycle(doc), re);
  assert.equal(validateLifecycle({ Rules: [] }), { Rules: [] });
});

validate.run();

// ---

const flags = suite("applyRuleFlags");

flags("should change only what the flags name :: edit", () => {
  const base = { ID: "r", Filter: { Prefix: "logs/" }, Status: "Enabled", Expiration: { Days: 3 }, Custom: "kept" };
  const edited = applyRuleFlags(base, { noncurrentExpireDays: "4", disable: true });
  assert.equal(edited, { ID: "r", Filter: { Prefix: "logs/" }, Status: "Disabled", Expiration: { Days: 3 }, Custom: "kept", NoncurrentVersionExpiration: { NoncurrentDays: 4 } });
  assert.equal(applyRuleFlags(edited, { expireDate: "2030-05-01" })["Expiration"], { Date: "2030-05-01T00:00:00Z" });
});

flags("should build the three filter shapes", () => {
  assert.equal(applyRuleFlags({ ID: "a" }, { expireDays: "1" })["Filter"], { Prefix: "" });
  assert.equal(applyRuleFlags({ ID: "a" }, { expireDays: "1", tags: "x=1" })["Filter"], { Tag: { Key: "x", Value: "1" } });
  const both = applyRuleFlags({ ID: "a" }, { expireDays: "1", tags: "x=1&y=", prefix: "p/" });
  assert.equal(both["Filter"], { And: { Prefix: "p/", Tags: [{ Key: "x", Value: "1" }, { Key: "y", Value: "" }] } });
  assert.equal(ruleFilter(both), { prefix: "p/", tags: [{ Key: "x", Value: "1" }, { Key: "y", Value: "" }], size: {} });
  assert.equal(ruleFilter({ Filter: { And: { Prefix: "p/", ObjectSizeGreaterThan: 10, ObjectSizeLessThan: 20 } } }).size, { gt: 10, lt: 20 });
});

flags("should refuse contradictions and bad values", () => {
  assert.throws(() => applyRuleFlags({ ID: "a" }, { expireDays: "1", expireDate: "2030-01-01" }), /only one of --expire-days and --expire-date/);
  assert.throws(() => applyRuleFlags({ ID: "a" }, { expireDays: "1.5" }), /whole number of days/);
  assert.throws(() => applyRuleFlags({ ID: "a" }, { noncurrentTransitionDays: "3" }), /noncurrent transition needs/);
  assert.throws(() => applyRuleFlags({ ID: "a" }, { transitionDate: "2030-13-01", storageClass: "X" }), /YYYY-MM-DD/);
});

flags.run();
