package main

// mc support top locks and mc support profile (air-gapped: the profile is
// saved locally, never uploaded), with madmin-go v2.0.7's own calls, as
// upstream mc makes them (cmd/support-top-locks.go, cmd/support-profile.go).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/minio/madmin-go"
)

func init() {
	register("support-top-locks", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Count int  `json:"count"`
			Stale bool `json:"stale"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		locks, err := adm.TopLocksWithOpts(ctx, madmin.TopLockOpts{Count: a.Count, Stale: a.Stale})
		if err != nil {
			return err
		}
		print(locks)
		return nil
	})
	register("support-profile", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Types   string `json:"types"`
			Seconds int    `json:"seconds"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		body, err := adm.Profile(ctx, madmin.ProfilerType(a.Types), time.Second*time.Duration(a.Seconds))
		if err != nil {
			return err
		}
		defer body.Close()
		h := sha256.New()
		n, err := io.Copy(h, body)
		if err != nil {
			return err
		}
		print(map[string]interface{}{"size": n, "sha256": hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	register("config-kv-set", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			KV string `json:"kv"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		_, err := adm.SetConfigKV(ctx, a.KV)
		return err
	})
	register("config-kv-del", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			K string `json:"k"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		_, err := adm.DelConfigKV(ctx, a.K)
		return err
	})
	// mc support diag --airgap as current upstream: madmin v3's ServerHealthInfo
	// query (anonymize, the v3 list of data types; v2.0.7 has neither), then
	// the report file's content before gzip (upstream TarGZHealthInfo).
	register("support-diag", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Types     []string `json:"types"`
			Deadline  string   `json:"deadline"`
			Anonymize string   `json:"anonymize"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		all := []string{"minioinfo", "minioconfig", "syscpu", "sysdrivehw", "sysosinfo", "sysmem", "sysnet", "sysprocess", "syserrors", "sysservices", "sysconfig", "replication", "shardshealth"}
		q := url.Values{}
		q.Set("deadline", a.Deadline)
		q.Set("anonymize", a.Anonymize)
		for _, t := range all {
			q.Set(t, "false")
		}
		for _, t := range a.Types {
			q.Set(t, "true")
		}
		resp, err := adm.ExecuteMethod(ctx, http.MethodGet, madmin.RequestData{RelPath: "/v3/healthinfo", QueryValues: q})
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		dec := json.NewDecoder(resp.Body)
		var version madmin.HealthInfoVersionStruct
		if err := dec.Decode(&version); err != nil {
			return err
		}
		var last json.RawMessage
		for {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return err
			}
			last = v
		}
		enc := json.NewEncoder(os.Stdout)
		if err := enc.Encode(struct {
			Version string `json:"version"`
		}{version.Version}); err != nil {
			return err
		}
		return enc.Encode(last)
	})
	registerCanned("top-locks", func() interface{} {
		t := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
		return madmin.LockEntries{
			{Timestamp: t, Elapsed: 3*time.Minute + 7*time.Second + 400*time.Millisecond, Resource: "photos/2024/a b+c.jpg", Type: "WRITE", Source: "[object-handlers.go:123:PutObject()]",
				ServerList: []string{"http://127.0.0.1:9000/"}, Owner: "http://127.0.0.1:9000", ID: "6d8e1f0a-7a33-4b0e-9f3d-8c1f2e0a1b2c", Quorum: 1},
			{Timestamp: t, Elapsed: 26 * time.Hour, Resource: "logs/stale", Type: "READ", Source: "[object-handlers.go:88:GetObject()]",
				ServerList: []string{}, Owner: "http://127.0.0.2:9000", ID: "0b1c", Quorum: 2},
		}
	})
}
