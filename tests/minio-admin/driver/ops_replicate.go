package main

// mc replicate (issue 24): remote targets through madmin's admin API and the
// rules through minio-go's S3 `?replication` calls, in the order upstream mc
// (cmd/replicate-*.go) makes them. The minio-go client is built with a region
// so that it sends no GET ?location first (our mc signs for MC_REGION or
// us-east-1 without asking, as its other S3 commands do).

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/madmin-go"
	minio "github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/replication"
	"github.com/minio/minio-go/v7/pkg/signer"
)

type replArgs struct {
	Bucket  string              `json:"bucket"`
	Target  madmin.BucketTarget `json:"target"`
	Opts    replication.Options `json:"opts"`
	Ops     []int               `json:"ops"`
	Update  bool                `json:"updateTarget"`
	All     bool                `json:"all"`
	Changes json.RawMessage     `json:"changes"`
	Arn     string              `json:"arn"`
	Older   time.Duration       `json:"olderThan"`
	Node    string              `json:"node"`
	Version string              `json:"metricsVersion"`
	Verbose bool                `json:"verbose"`
	Prefix  string              `json:"prefix"`
}

func flagValue(name string) string { return flag.Lookup(name).Value.String() }

func s3Client() (*minio.Client, error) {
	return minio.New(flagValue("endpoint"), &minio.Options{
		Creds:        credentials.NewStaticV4(flagValue("access"), flagValue("secret"), ""),
		Secure:       flagValue("secure") == "true",
		Region:       "us-east-1",
		BucketLookup: minio.BucketLookupPath,
		Transport:    &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
	})
}

// signedGet sends a GET signed by minio-go's SigV4 signer: for the calls that
// upstream mc makes through newer libraries than Debian's (replication
// metrics v2, madmin v3's replication MRF backlog).
func signedGet(ctx context.Context, path string, query url.Values) ([]byte, error) {
	scheme := "http"
	if flagValue("secure") == "true" {
		scheme = "https"
	}
	u := url.URL{Scheme: scheme, Host: flagValue("endpoint"), Path: path, RawQuery: strings.ReplaceAll(query.Encode(), "+", "%20")}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Amz-Content-Sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	req = signer.SignV4(*req, flagValue("access"), flagValue("secret"), "", "us-east-1")
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return b, err
}

func replOp(fn func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error) opFunc {
	return func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a replArgs
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		s3, err := s3Client()
		if err != nil {
			return err
		}
		return fn(ctx, adm, s3, a)
	}
}

func init() {
	// mc replicate add: the remote target, then the rule pointing at its ARN.
	register("replicate-add", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		arn, err := adm.SetRemoteTarget(ctx, a.Bucket, &a.Target)
		if err != nil {
			return err
		}
		cfg, err := s3.GetBucketReplication(ctx, a.Bucket)
		if err != nil {
			return err
		}
		a.Opts.DestBucket = arn
		if err := cfg.AddRule(a.Opts); err != nil {
			return err
		}
		print(map[string]string{"arn": arn})
		return s3.SetBucketReplication(ctx, a.Bucket, cfg)
	}))
	// mc replicate update: the rule's target changed first (with --remote-bucket), then the rule.
	register("replicate-update", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		cfg, err := s3.GetBucketReplication(ctx, a.Bucket)
		if err != nil {
			return err
		}
		targets, err := adm.ListRemoteTargets(ctx, a.Bucket, "")
		if err != nil {
			return err
		}
		var arn string
		for _, r := range cfg.Rules {
			if r.ID == a.Opts.ID {
				arn = r.Destination.Bucket
				break
			}
		}
		if a.Update {
			var t *madmin.BucketTarget
			for i := range targets {
				if targets[i].Arn == arn {
					c := targets[i].Clone()
					t = &c
				}
			}
			if t == nil {
				return fmt.Errorf("no target %s", arn)
			}
			// The changed fields, as upstream's modifyRemoteTarget sets them.
			if err := json.Unmarshal(a.Changes, t); err != nil {
				return err
			}
			ops := make([]madmin.TargetUpdateType, 0, len(a.Ops))
			for _, o := range a.Ops {
				ops = append(ops, madmin.TargetUpdateType(o))
			}
			if _, err := adm.UpdateRemoteTarget(ctx, t, ops...); err != nil {
				return err
			}
		}
		a.Opts.DestBucket = arn
		if err := cfg.EditRule(a.Opts); err != nil {
			return err
		}
		return s3.SetBucketReplication(ctx, a.Bucket, cfg)
	}))
	register("replicate-list", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		cfg, err := s3.GetBucketReplication(ctx, a.Bucket)
		if err != nil {
			return err
		}
		targets, err := adm.ListRemoteTargets(ctx, a.Bucket, "")
		if err != nil {
			return err
		}
		print(map[string]interface{}{"config": cfg, "targets": targets})
		return nil
	}))
	register("replicate-remove", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		cfg, err := s3.GetBucketReplication(ctx, a.Bucket)
		if err != nil {
			return err
		}
		if a.All {
			return s3.RemoveBucketReplication(ctx, a.Bucket)
		}
		var arn string
		for _, r := range cfg.Rules {
			if r.ID == a.Opts.ID {
				arn = r.Destination.Bucket
			}
		}
		if err := cfg.RemoveRule(a.Opts); err != nil {
			return err
		}
		if err := s3.SetBucketReplication(ctx, a.Bucket, cfg); err != nil {
			return err
		}
		return adm.RemoveRemoteTarget(ctx, a.Bucket, arn)
	}))
	register("replicate-export", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		cfg, err := s3.GetBucketReplication(ctx, a.Bucket)
		if err != nil {
			return err
		}
		print(cfg)
		return nil
	}))
	register("replicate-import", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		var cfg replication.Config
		if err := json.Unmarshal(a.Changes, &cfg); err != nil {
			return err
		}
		return s3.SetBucketReplication(ctx, a.Bucket, cfg)
	}))
	register("replicate-resync-start", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		info, err := s3.ResetBucketReplicationOnTarget(ctx, a.Bucket, a.Older, a.Arn)
		if err != nil {
			return err
		}
		print(info)
		return nil
	}))
	register("replicate-resync-status", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		info, err := s3.GetBucketReplicationResyncStatus(ctx, a.Bucket, a.Arn)
		if err != nil {
			return err
		}
		print(info)
		return nil
	}))
		register("replicate-status", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		b, err := signedGet(ctx, "/"+a.Bucket+"/", url.Values{"replication-metrics": {"2"}})
		if err != nil {
			return err
		}
		if _, err := adm.ListRemoteTargets(ctx, a.Bucket, ""); err != nil {
			return err
		}
		if _, err := s3.GetBucketReplication(ctx, a.Bucket); err != nil {
			return err
		}
		fmt.Println(string(b))
		return nil
	}))
	// mc replicate backlog: madmin v3's BucketReplicationMRF (GET replication/mrf?bucket=&node=), not in v2.0.7.
	register("replicate-backlog", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		b, err := signedGet(ctx, "/minio/admin/v3/replication/mrf", url.Values{"bucket": {a.Bucket}, "node": {a.Node}})
		if err != nil {
			return err
		}
		fmt.Print(string(b))
		return nil
	}))

	// mc replicate backlog --full: madmin's BucketReplicationDiff (POST replication/diff), every DiffInfo printed.
	register("replicate-diff", replOp(func(ctx context.Context, adm *madmin.AdminClient, s3 *minio.Client, a replArgs) error {
		for d := range adm.BucketReplicationDiff(ctx, a.Bucket, madmin.ReplDiffOpts{ARN: a.Arn, Verbose: a.Verbose, Prefix: a.Prefix}) {
			if d.Err != nil {
				return d.Err
			}
			print(d)
		}
		return nil
	}))

	registerCanned("bucket-targets", func() interface{} {
		return []madmin.BucketTarget{{
			SourceBucket: "photos", Endpoint: "127.0.0.1:9100", Credentials: &madmin.Credentials{AccessKey: "REMOTEKEY"}, TargetBucket: "backup",
			Secure: false, Path: "auto", API: "s3v4", Arn: "arn:minio:replication::c5be6b16-769d-432a-9ef1-4567081f3566:backup", Type: madmin.ReplicationService,
			BandwidthLimit: 2000000000, HealthCheckDuration: 60 * time.Second,
		}}
	})
	registerCanned("replication-config", func() interface{} {
		cfg := replication.Config{Rules: []replication.Rule{{
			ID: "cfvn4k4p8k5s73a2e0hg", Status: replication.Enabled, Priority: 1,
			DeleteMarkerReplication: replication.DeleteMarkerReplication{Status: replication.Enabled},
			DeleteReplication:       replication.DeleteReplication{Status: replication.Enabled},
			Destination:             replication.Destination{Bucket: "arn:minio:replication::c5be6b16-769d-432a-9ef1-4567081f3566:backup", StorageClass: "REDUCED_REDUNDANCY"},
			Filter:                  replication.Filter{And: replication.And{Prefix: "docs/", Tags: []replication.Tag{{Key: "k1", Value: "v1"}, {Key: "k2", Value: "v & 2"}}}},
			SourceSelectionCriteria: replication.SourceSelectionCriteria{ReplicaModifications: replication.ReplicaModifications{Status: replication.Enabled}},
			ExistingObjectReplication: replication.ExistingObjectReplication{Status: replication.Disabled},
		}, {
			ID: "second", Status: replication.Disabled, Priority: 2,
			DeleteMarkerReplication: replication.DeleteMarkerReplication{Status: replication.Disabled},
			DeleteReplication:       replication.DeleteReplication{Status: replication.Disabled},
			Destination:             replication.Destination{Bucket: "arn:minio:replication::0d9a2c6e-0b4f-4c4e-9d3e-111111111111:archive"},
			Filter:                  replication.Filter{Tag: replication.Tag{Key: "team", Value: "ops"}},
			SourceSelectionCriteria: replication.SourceSelectionCriteria{ReplicaModifications: replication.ReplicaModifications{Status: replication.Enabled}},
			ExistingObjectReplication: replication.ExistingObjectReplication{Status: replication.Enabled},
		}}}
		b, err := xml.Marshal(cfg)
		if err != nil {
			fail(err)
		}
		return string(b)
	})
	registerCanned("resync-info", func() interface{} {
		return replication.ResyncTargetsInfo{Targets: []replication.ResyncTarget{{
			Arn: "arn:minio:replication::c5be6b16-769d-432a-9ef1-4567081f3566:backup", ResetID: "5a4c8f7e-1b2d-4e3f-9a0b-c1d2e3f4a5b6",
			StartTime: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), EndTime: time.Date(2024, 1, 2, 4, 4, 5, 0, time.UTC),
			ResyncStatus: "Ongoing", ReplicatedSize: 1536, ReplicatedCount: 3, FailedSize: 10, FailedCount: 1, Bucket: "photos", Object: "docs/a.txt",
		}}}
	})
	registerCanned("replication-metrics", func() interface{} {
		return replication.Metrics{
			Stats: map[string]replication.TargetMetrics{"arn:minio:replication::c5be6b16-769d-432a-9ef1-4567081f3566:backup": {
				PendingSize: 2048, ReplicatedSize: 1 << 20, FailedSize: 512, PendingCount: 2, FailedCount: 1, BandWidthLimitInBytesPerSecond: 2000000000, CurrentBandwidthInBytesPerSecond: 1024,
			}},
			PendingSize: 2048, ReplicatedSize: 1 << 20, ReplicaSize: 4096, FailedSize: 512, PendingCount: 2, FailedCount: 1,
		}
	})
}
