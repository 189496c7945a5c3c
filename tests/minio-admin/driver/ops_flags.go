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

func init() {
	// mc rm --purge --force: RemoveObject with ForceDelete (x-minio-force-delete: true), no HEAD first.
	register("rm-purge", func(ctx context.Context, _ *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Bucket string `json:"bucket"`
			Key    string `json:"key"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		s3, err := s3Client()
		if err != nil {
			return err
		}
		return s3.RemoveObject(ctx, a.Bucket, a.Key, minio.RemoveObjectOptions{ForceDelete: true})
	})
	register("version-enable", func(ctx context.Context, _ *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Bucket   string   `json:"bucket"`
			Prefixes []string `json:"prefixes"`
			Folders  bool     `json:"folders"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		s3, err := s3Client()
		if err != nil {
			return err
		}
		cfg := minio.BucketVersioningConfiguration{Status: minio.Enabled, ExcludeFolders: a.Folders}
		for _, p := range a.Prefixes {
			cfg.ExcludedPrefixes = append(cfg.ExcludedPrefixes, minio.ExcludedPrefix{Prefix: p})
		}
		return s3.SetBucketVersioning(ctx, a.Bucket, cfg)
	})
}
