"""An S3 witness that is not our code: botocore, as Debian's aws-cli bundles it.

Reads one JSON request per line on stdin and answers one JSON line on stdout:
{"id": 1, "op": "list", "bucket": "b", "prefix": ""} -> {"id": 1, "ok": true, "result": ...}.
Started once per test file (tests/mc/s3-witness.ts); aws-cli itself would cost
almost a second per call.
"""
import base64
import hashlib
import json
import sys

from awscli.botocore.config import Config
from awscli.botocore.session import Session

endpoint, access_key, secret_key = sys.argv[1:4]
client = Session().create_client(
    "s3",
    endpoint_url=endpoint,
    aws_access_key_id=access_key,
    aws_secret_access_key=secret_key,
    region_name="us-east-1",
    config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}),
)


def listing(req):
    out, token = [], None
    while True:
        args = {"Bucket": req["bucket"], "Prefix": req.get("prefix", "")}
        if token:
            args["ContinuationToken"] = token
        page = client.list_objects_v2(**args)
        for o in page.get("Contents", []):
            out.append({"key": o["Key"], "size": o["Size"], "etag": o["ETag"].strip('"'), "storageClass": o.get("StorageClass", "")})
        if not page.get("IsTruncated"):
            return out
        token = page["NextContinuationToken"]


def versions(req):
    out, marks = [], {}
    while True:
        page = client.list_object_versions(Bucket=req["bucket"], Prefix=req.get("prefix", ""), **marks)
        for kind, group in (("version", "Versions"), ("marker", "DeleteMarkers")):
            for v in page.get(group, []):
                out.append({"key": v["Key"], "versionId": v["VersionId"], "isLatest": v["IsLatest"], "kind": kind})
        if not page.get("IsTruncated"):
            return out
        marks = {"KeyMarker": page["NextKeyMarker"], "VersionIdMarker": page["NextVersionIdMarker"]}


def get(req):
    args = {"Bucket": req["bucket"], "Key": req["key"]}
    if req.get("versionId"):
        args["VersionId"] = req["versionId"]
    body = client.get_object(**args)["Body"].read()
    return {"md5": hashlib.md5(body).hexdigest(), "size": len(body), "base64": base64.b64encode(body).decode() if len(body) <= 65536 else ""}


def put(req):
    r = client.put_object(Bucket=req["bucket"], Key=req["key"], Body=base64.b64decode(req["base64"]))
    return {"versionId": r.get("VersionId", "")}


def tagging(req):
    return {t["Key"]: t["Value"] for t in client.get_object_tagging(Bucket=req["bucket"], Key=req["key"])["TagSet"]}


def retention(req):
    r = client.get_object_retention(Bucket=req["bucket"], Key=req["key"])["Retention"]
    return {"mode": r.get("Mode", ""), "until": r["RetainUntilDate"].isoformat() if "RetainUntilDate" in r else ""}


def legal_hold(req):
    return client.get_object_legal_hold(Bucket=req["bucket"], Key=req["key"])["LegalHold"]["Status"]


def create_bucket(req):
    client.create_bucket(Bucket=req["bucket"], ObjectLockEnabledForBucket=bool(req.get("lock")))
    if req.get("versioning"):
        client.put_bucket_versioning(Bucket=req["bucket"], VersioningConfiguration={"Status": "Enabled"})
    return True


ops = {"list": listing, "versions": versions, "get": get, "put": put, "tagging": tagging, "retention": retention, "legalHold": legal_hold, "createBucket": create_bucket}

for line in sys.stdin:
    req = json.loads(line)
    try:
        answer = {"id": req["id"], "ok": True, "result": ops[req["op"]](req)}
    except Exception as err:  # noqa: BLE001 - every failure goes back to the test as text
        answer = {"id": req["id"], "ok": False, "error": f"{type(err).__name__}: {err}"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
