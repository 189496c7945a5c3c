package main

// MinIO-only flags of plain S3 commands (issue 24), through minio-go as
// upstream mc calls it: `version enable --excluded-prefixes/--exclude-folders`
// (BucketVersioningConfiguration's MinIO extension), `rm --purge`.

import (
	"context"
	"encoding/json"

	"github.com/minio/madmin-go"
	minio "github.com/minio/minio-go/v7"
)

// registerS3 registers an operation made with minio-go: its JSON arguments
// decoded into a fresh A, and a client of the driver's endpoint and keys.
// The set-up every S3 operation shares (ops_flags.go, ops_zip.go).
func registerS3[A any](name string, fn func(ctx context.Context, s3 *minio.Client, a A) error) {
	register(name, func(ctx context.Context, _ *madmin.AdminClient, raw json.RawMessage) error {
		var a A
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		s3, err := s3Client()
		if err != nil {
			return err
		}
		return fn(ctx, s3, a)
	})
}

type objectArgs struct {
	Bucket string `json:"bucket"`
	Key    string `json:"key"`
}

type versionEnableArgs struct {
	Bucket   string   `json:"bucket"`
	Prefixes []string `json:"prefixes"`
	Folders  bool     `json:"folders"`
}

func init() {
	// mc rm --purge --force: RemoveObject with ForceDelete (x-minio-force-delete: true), no HEAD first.
	registerS3("rm-purge", func(ctx context.Context, s3 *minio.Client, a objectArgs) error {
		return s3.RemoveObject(ctx, a.Bucket, a.Key, minio.RemoveObjectOptions{ForceDelete: true})
	})
	registerS3("version-enable", func(ctx context.Context, s3 *minio.Client, a versionEnableArgs) error {
		cfg := minio.BucketVersioningConfiguration{Status: minio.Enabled, ExcludeFolders: a.Folders}
		for _, p := range a.Prefixes {
			cfg.ExcludedPrefixes = append(cfg.ExcludedPrefixes, minio.ExcludedPrefix{Prefix: p})
		}
		return s3.SetBucketVersioning(ctx, a.Bucket, cfg)
	})
}
