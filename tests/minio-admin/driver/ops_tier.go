package main

// mc ilm tier (issue 24): madmin-go's tier API as upstream mc calls it
// (cmd/ilm-tier-*.go). The config goes in as JSON and is marshalled by the
// library, so the body the reference sends is madmin's own.

import (
	"context"
	"encoding/json"
	"time"

	"github.com/minio/madmin-go"
)

type tierArgs struct {
	Config madmin.TierConfig `json:"tier"`
	Name   string            `json:"tierName"`
	Creds  madmin.TierCreds  `json:"creds"`
}

func tierOp(fn func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error) opFunc {
	return func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a tierArgs
		// The tier config is decoded by hand: its UnmarshalJSON refuses a missing one.
		var probe struct {
			Tier json.RawMessage `json:"tier"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return err
		}
		var rest struct {
			Name  string           `json:"tierName"`
			Creds madmin.TierCreds `json:"creds"`
		}
		if err := json.Unmarshal(raw, &rest); err != nil {
			return err
		}
		a.Name, a.Creds = rest.Name, rest.Creds
		if len(probe.Tier) > 0 {
			if err := json.Unmarshal(probe.Tier, &a.Config); err != nil {
				return err
			}
		}
		return fn(ctx, adm, a)
	}
}

func init() {
	register("tier-add", tierOp(func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error {
		return adm.AddTier(ctx, &a.Config)
	}))
	register("tier-list", tierOp(func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error {
		tiers, err := adm.ListTiers(ctx)
		if err != nil {
			return err
		}
		print(map[string]interface{}{"status": "success", "tiers": tiers})
		return nil
	}))
	register("tier-stats", tierOp(func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error {
		s, err := adm.TierStats(ctx)
		if err != nil {
			return err
		}
		print(s)
		return nil
	}))
	register("tier-edit", tierOp(func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error {
		return adm.EditTier(ctx, a.Name, a.Creds)
	}))
	register("tier-verify", tierOp(func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error {
		return adm.VerifyTier(ctx, a.Name)
	}))
	register("tier-remove", tierOp(func(ctx context.Context, adm *madmin.AdminClient, a tierArgs) error {
		return adm.RemoveTier(ctx, a.Name)
	}))

	// What MinIO's ListTierHandler answers: each config Clone()d, its secret redacted.
	registerCanned("tiers", func() interface{} {
		m, _ := madmin.NewTierMinIO("WARM", "https://warm.example.net:9000", "WARMKEY", "warm-secret", "cold", madmin.MinIOPrefix("photos/"), madmin.MinIORegion("eu-west-1"))
		s, _ := madmin.NewTierS3("GLACIER", "AKIA", "s3-secret", "archive", madmin.S3StorageClass("REDUCED_REDUNDANCY"))
		return []madmin.TierConfig{m.Clone(), s.Clone()}
	})
	registerCanned("tier-stats", func() interface{} {
		return []madmin.TierInfo{
			{Name: "STANDARD", Type: "internal", Stats: madmin.TierStats{TotalSize: 5 << 20, NumObjects: 12, NumVersions: 14}},
			{Name: "WARM", Type: "minio", Stats: madmin.TierStats{TotalSize: 1536, NumObjects: 3, NumVersions: 3}, DailyStats: madmin.DailyTierStats{UpdatedAt: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}},
		}
	})
}
