package main

// mc admin replicate … (site replication, issue 25). Current upstream mc uses
// madmin-go v3, whose add, edit and status queries and PeerInfo body carry
// fields v2.0.7 lacks (replicateILMExpiry, disableILMExpiryReplication,
// enableILMExpiryReplication, metrics, ilm-expiry-rules, peer-state, sync,
// defaultbandwidth; the entity ilm-expiry-rule): those requests go through ExecuteMethod
// as v3 builds them (`call` of ops_idp.go encrypts where v3 does). info,
// remove and the resync metrics are v2.0.7's own calls.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/minio/madmin-go"
)

// madmin-go v3 PeerInfo.
type peerInfoV3 struct {
	Endpoint         string `json:"endpoint"`
	Name             string `json:"name"`
	DeploymentID     string `json:"deploymentID"`
	SyncState        string `json:"sync"`
	DefaultBandwidth struct {
		Limit     uint64    `json:"bandwidthLimitPerBucket"`
		IsSet     bool      `json:"set"`
		UpdatedAt time.Time `json:"updatedAt,omitempty"`
	} `json:"defaultbandwidth"`
}

type srArgs struct {
	Sites          []madmin.PeerSite `json:"sites"`
	ILMExpiry      bool              `json:"ilmExpiry"`
	Peer           peerInfoV3        `json:"peer"`
	Names          []string          `json:"names"`
	All            bool              `json:"all"`
	Op             string            `json:"op"`
	Site           string            `json:"site"`
	Buckets        bool              `json:"withBuckets"`
	Policies       bool              `json:"withPolicies"`
	Users          bool              `json:"withUsers"`
	Groups         bool              `json:"withGroups"`
	Metrics        bool              `json:"withMetrics"`
	Entity         string            `json:"entity"`
	EntityValue    string            `json:"entityValue"`
	DisableILMRepl bool              `json:"disableIlm"`
	EnableILMRepl  bool              `json:"enableIlm"`
	ILMRules       bool              `json:"withIlmExpiryRules"`
}

func decodeSrArgs(raw json.RawMessage) (srArgs, error) {
	var a srArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func srQuery(kv ...string) url.Values {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	q.Set("api-version", madmin.SiteReplAPIVersion)
	return q
}

func plainCall(ctx context.Context, adm *madmin.AdminClient, method, rel string, q url.Values, body []byte) error {
	resp, err := adm.ExecuteMethod(ctx, method, madmin.RequestData{RelPath: "/v3" + rel, QueryValues: q, Content: body})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	fmt.Println(string(bytes.TrimSpace(b)))
	return nil
}

func init() {
	register("sr-add", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeSrArgs(raw)
		if err != nil {
			return err
		}
		return call(ctx, adm, http.MethodPut, "/site-replication/add", srQuery("replicateILMExpiry", strconv.FormatBool(a.ILMExpiry)), a.Sites, http.StatusOK, false)
	})
	register("sr-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		i, err := adm.SiteReplicationInfo(ctx)
		if err != nil {
			return err
		}
		print(i)
		return nil
	})
	register("sr-edit", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeSrArgs(raw)
		if err != nil {
			return err
		}
		q := srQuery("disableILMExpiryReplication", strconv.FormatBool(a.DisableILMRepl), "enableILMExpiryReplication", strconv.FormatBool(a.EnableILMRepl))
		return call(ctx, adm, http.MethodPut, "/site-replication/edit", q, a.Peer, http.StatusOK, false)
	})
	register("sr-remove", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeSrArgs(raw)
		if err != nil {
			return err
		}
		st, err := adm.SiteReplicationRemove(ctx, madmin.SRRemoveReq{SiteNames: a.Names, RemoveAll: a.All})
		if err != nil {
			return err
		}
		print(st)
		return nil
	})
	register("sr-status", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeSrArgs(raw)
		if err != nil {
			return err
		}
		q := srQuery("buckets", strconv.FormatBool(a.Buckets), "policies", strconv.FormatBool(a.Policies), "users", strconv.FormatBool(a.Users),
			"groups", strconv.FormatBool(a.Groups), "showDeleted", "false", "metrics", strconv.FormatBool(a.Metrics),
			"ilm-expiry-rules", strconv.FormatBool(a.ILMRules), "peer-state", "false")
		if a.Entity != "" {
			q.Set("entityvalue", a.EntityValue)
			q.Set("entity", a.Entity)
		}
		return plainCall(ctx, adm, http.MethodGet, "/site-replication/status", q, nil)
	})
	// resync start|cancel: the site from the info (start: the one whose deployment the second server reports), then the op.
	register("sr-resync", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeSrArgs(raw)
		if err != nil {
			return err
		}
		resp, err := adm.ExecuteMethod(ctx, http.MethodGet, madmin.RequestData{RelPath: "/v3/site-replication/info", QueryValues: srQuery()})
		if err != nil {
			return err
		}
		var info struct {
			Sites []peerInfoV3 `json:"sites"`
		}
		err = json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
		if err != nil {
			return err
		}
		want := a.Site
		if a.Op == "start" {
			si, err := adm.ServerInfo(ctx)
			if err != nil {
				return err
			}
			want = si.DeploymentID
		}
		for _, s := range info.Sites {
			if (a.Op == "start" && s.DeploymentID == want) || (a.Op != "start" && s.Name == want) {
				body, _ := json.Marshal(s)
				return plainCall(ctx, adm, http.MethodPut, "/site-replication/resync/op", url.Values{"operation": {a.Op}, "api-version": {madmin.SiteReplAPIVersion}}, body)
			}
		}
		return fmt.Errorf("no site %q", want)
	})
	register("sr-resync-status", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeSrArgs(raw)
		if err != nil {
			return err
		}
		info, err := adm.SiteReplicationInfo(ctx)
		if err != nil {
			return err
		}
		for _, s := range info.Sites {
			if s.Name == a.Site {
				ctx, cancel := context.WithCancel(ctx)
				defer cancel()
				err := adm.Metrics(ctx, madmin.MetricsOptions{Type: madmin.MetricsSiteResync, ByDepID: s.DeploymentID}, func(m madmin.RealtimeMetrics) {
					print(m)
					if m.Aggregated.SiteResync != nil && m.Aggregated.SiteResync.Complete() {
						cancel()
					}
				})
				if err != nil && ctx.Err() == nil {
					return err
				}
				return nil
			}
		}
		return fmt.Errorf("no site %q", a.Site)
	})
}
