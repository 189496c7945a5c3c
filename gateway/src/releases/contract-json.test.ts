import { create } from "@bufbuild/protobuf";
import { GetNotesIndexResponseSchema, ReleaseSchema } from "@mc/releases/gen/releases/v1/releases_pb.js";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { contractJson } from "./contract-json.js";

const id = "RELEASE.2024-05-01T01-11-10Z";
const base = "https://dl.example.test";
const notes = `${base}/client/mc/release/notes`;
const archive = `${base}/client/mc/release/linux-amd64/archive/mc.${id}`;

/** The record of contracts/releases.md §5.1, key for key, as the API has always written it. */
const contractRecord =
  `{"product":"client","component":"mc","release_id":"${id}","release_date":"2024-05-01T03:12:44Z","release_time":"2024-05-01T01:11:10Z",` +
  `"status":"supported","public_key_url":"${base}/minisign.pub",` +
  `"artifacts":{"release_notes":"${notes}/release-notes-${id}.md","sbom_cyclonedx":"${notes}/sbom-${id}.cyclonedx.json","sbom_spdx":"${notes}/sbom-${id}.spdx.json","go_modules":"${notes}/gomod-${id}.txt"},` +
  `"downloads":{"linux":[{"component":"mc","os":"linux","arch":"amd64","filename":"mc.${id}","url":"${archive}","latest_url":"${base}/client/mc/release/linux-amd64/mc",` +
  `"size":5368709120,"sha256":"${"ab".repeat(32)}","checksum_url":"${archive}.sha256sum","signature_url":"${archive}.minisig"}],` +
  `"macos":[],"windows":[],"docker":[{"component":"mc","image":"quay.io/minio/mc","tag":"${id}","pull":"docker pull quay.io/minio/mc:${id}"}]}}`;

const init = {
  product: "client",
  component: "mc",
  releaseId: id,
  releaseDate: "2024-05-01T03:12:44Z",
  releaseTime: "2024-05-01T01:11:10Z",
  status: "supported",
  publicKeyUrl: `${base}/minisign.pub`,
  artifacts: { releaseNotes: `${notes}/release-notes-${id}.md`, sbomCyclonedx: `${notes}/sbom-${id}.cyclonedx.json`, sbomSpdx: `${notes}/sbom-${id}.spdx.json`, goModules: `${notes}/gomod-${id}.txt` },
  downloads: {
    linux: [
      {
        component: "mc",
        os: "linux",
        arch: "amd64",
        filename: `mc.${id}`,
        url: archive,
        latestUrl: `${base}/client/mc/release/linux-amd64/mc`,
        // Above 2^32: a size is a JSON number however large the binary.
        size: 5 * 1024 ** 3,
        sha256: "ab".repeat(32),
        checksumUrl: `${archive}.sha256sum`,
        signatureUrl: `${archive}.minisig`,
      },
    ],
    docker: [{ component: "mc", image: "quay.io/minio/mc", tag: id, pull: `docker pull quay.io/minio/mc:${id}` }],
  },
};
const record = create(ReleaseSchema, init);

const json = suite("contractJson");

json("should write a release record as the contract's bytes :: snake_case keys in contract order, size a number, empty lists kept", () => {
  assert.is(JSON.stringify(contractJson(ReleaseSchema, record)), contractRecord);
});

json("should leave the notes out of the record until they are asked for", () => {
  const withNotes = create(ReleaseSchema, { ...init, notes: { markdown: "# x", html: "<h1>x</h1>", summary: "x" } });
  assert.ok("notes" in (contractJson(ReleaseSchema, withNotes) as object));
  assert.not.ok("notes" in (contractJson(ReleaseSchema, record) as object));
});

json("should write the notes index's JSON form without the HTML listing", () => {
  const entry = { releaseId: id, releaseDate: "2024-05-01T03:12:44Z", releaseNotes: "n", sbomCyclonedx: "c", sbomSpdx: "s", goModules: "g" };
  const index = create(GetNotesIndexResponseSchema, { product: "client", component: "mc", releases: [entry] });
  assert.is(
    JSON.stringify(contractJson(GetNotesIndexResponseSchema, index)),
    `{"product":"client","component":"mc","releases":[{"release_id":"${id}","release_date":"2024-05-01T03:12:44Z","release_notes":"n","sbom_cyclonedx":"c","sbom_spdx":"s","go_modules":"g"}]}`,
  );
});

json.run();
