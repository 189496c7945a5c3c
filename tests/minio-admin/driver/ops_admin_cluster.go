package main

// mc admin heal, top locks, prometheus metrics, cluster bucket|iam
// export|import, decommission and rebalance (issue 25): madmin-go v2.0.7's
// own calls as upstream mc makes them. import-iam-v2 (madmin v3's
// ImportIAMV2, absent from v2.0.7) goes through ExecuteMethod, with v2.0.7's
// ImportIAM as upstream's fallback; prometheus metrics is a plain GET with
// upstream's bearer token (no madmin call).

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/ioutil"
	"net/http"
	"time"

	"github.com/minio/madmin-go"
)

type clusterArgs struct {
	Bucket     string `json:"bucket"`
	Prefix     string `json:"prefix"`
	Recursive  bool   `json:"recursive"`
	DryRun     bool   `json:"dryRun"`
	Remove     bool   `json:"remove"`
	Deep       bool   `json:"deep"`
	ForceStart bool   `json:"forceStart"`
	ForceStop  bool   `json:"forceStop"`
	Count      int    `json:"count"`
	Stale      bool   `json:"stale"`
	Pool       string `json:"pool"`
	Zip        []byte `json:"zip"`
	URL        string `json:"url"`
}

func decodeClusterArgs(raw json.RawMessage) (clusterArgs, error) {
	var a clusterArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func init() {
	register("heal", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeClusterArgs(raw)
		if err != nil {
			return err
		}
		if a.Bucket == "" && !a.Recursive {
			st, err := adm.BackgroundHealStatus(ctx)
			if err != nil {
				return err
			}
			print(st)
			return nil
		}
		opts := madmin.HealOpts{Recursive: a.Recursive, DryRun: a.DryRun, Remove: a.Remove, ScanMode: madmin.HealNormalScan}
		if a.Deep {
			opts.ScanMode = madmin.HealDeepScan
		}
		if a.ForceStop {
			_, _, err := adm.Heal(ctx, a.Bucket, a.Prefix, opts, "", a.ForceStart, true)
			return err
		}
		start, _, err := adm.Heal(ctx, a.Bucket, a.Prefix, opts, "", a.ForceStart, false)
		if err != nil {
			return err
		}
		for {
			_, st, err := adm.Heal(ctx, a.Bucket, a.Prefix, opts, start.ClientToken, a.ForceStart, false)
			if err != nil {
				return err
			}
			print(st)
			if st.Summary == "finished" || st.Summary == "stopped" {
				return nil
			}
			time.Sleep(time.Second)
		}
	})
	register("top-locks", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeClusterArgs(raw)
		if err != nil {
			return err
		}
		l, err := adm.TopLocksWithOpts(ctx, madmin.TopLockOpts{Count: a.Count, Stale: a.Stale})
		if err != nil {
			return err
		}
		print(l)
		return nil
	})
	// upstream's metrics request: GET <alias URL>/minio/v2/metrics/<type> with a bearer token (golang-jwt HS512).
	register("prometheus-metrics", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeClusterArgs(raw)
		if err != nil {
			return err
		}
		ak, sk := adm.GetAccessAndSecretKey()
		enc := base64.RawURLEncoding
		head := enc.EncodeToString([]byte(`{"alg":"HS512","typ":"JWT"}`))
		claims, _ := json.Marshal(map[string]interface{}{"iss": "prometheus", "sub": ak, "exp": time.Now().Add(100 * 365 * 24 * time.Hour).Unix()})
		mac := hmac.New(sha512.New, []byte(sk))
		mac.Write([]byte(head + "." + enc.EncodeToString(claims)))
		token := head + "." + enc.EncodeToString(claims) + "." + enc.EncodeToString(mac.Sum(nil))
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
		if err != nil {
			return err
		}
		req.Header.Add("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		print(string(b))
		return nil
	})
	register("bucket-export", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeClusterArgs(raw)
		if err != nil {
			return err
		}
		r, err := adm.ExportBucketMetadata(ctx, a.Bucket)
		if err != nil {
			return err
		}
		defer r.Close()
		_, err = io.Copy(ioutil.Discard, r)
		return err
	})
	register("bucket-import", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeClusterArgs(raw)
		if err != nil {
			return err
		}
		r, err := adm.ImportBucketMetadata(ctx, a.Bucket, ioutil.NopCloser(bytes.NewReader(a.Zip)))
		if err != nil {
			return err
		}
		print(r)
		return nil
	})
	register("iam-export", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		r, err := adm.ExportIAM(ctx)
		if err != nil {
			return err
		}
		defer r.Close()
		_, err = io.Copy(ioutil.Discard, r)
		return err
	})
	register("iam-import", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeClusterArgs(raw)
		if err != nil {
			return err
		}
		resp, err := adm.ExecuteMethod(ctx, http.MethodPut, madmin.RequestData{RelPath: "/v3/import-iam-v2", Content: a.Zip})
		if err == nil {
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				b, _ := io.ReadAll(resp.Body)
				fmt.Println(string(b))
				return nil
			}
		}
		return adm.ImportIAM(ctx, ioutil.NopCloser(bytes.NewReader(a.Zip)))
	})
	register("decom", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Op   string `json:"op"`
			Pool string `json:"pool"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		switch a.Op {
		case "start":
			return adm.DecommissionPool(ctx, a.Pool)
		case "cancel":
			if a.Pool != "" {
				return adm.CancelDecommissionPool(ctx, a.Pool)
			}
			_, err := adm.ListPoolsStatus(ctx)
			return err
		default:
			if a.Pool != "" {
				_, err := adm.StatusPool(ctx, a.Pool)
				return err
			}
			_, err := adm.ListPoolsStatus(ctx)
			return err
		}
	})
	register("rebalance", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		var a struct {
			Op string `json:"op"`
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		switch a.Op {
		case "start":
			_, err := adm.RebalanceStart(ctx)
			return err
		case "stop":
			return adm.RebalanceStop(ctx)
		default:
			r, err := adm.RebalanceStatus(ctx)
			if err != nil {
				return err
			}
			print(r)
			return nil
		}
	})

	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	registerCanned("heal-start", func() interface{} {
		return madmin.HealStartSuccess{ClientToken: "tok-1", ClientAddress: "127.0.0.1", StartTime: at}
	})
	registerCanned("heal-status", func() interface{} {
		drives := func(states ...string) []madmin.HealDriveInfo {
			var d []madmin.HealDriveInfo
			for i, s := range states {
				d = append(d, madmin.HealDriveInfo{UUID: fmt.Sprintf("u%d", i), Endpoint: fmt.Sprintf("/data%d", i+1), State: s})
			}
			return d
		}
		obj := madmin.HealResultItem{ResultIndex: 1, Type: madmin.HealItemObject, Bucket: "photos", Object: "a b.jpg", ParityBlocks: 2, DataBlocks: 2, DiskCount: 4, SetCount: 1, ObjectSize: 1536}
		obj.Before.Drives = drives("ok", "ok", "missing", "ok")
		obj.After.Drives = drives("ok", "ok", "ok", "ok")
		bkt := madmin.HealResultItem{ResultIndex: 2, Type: madmin.HealItemBucket, Bucket: "photos", DiskCount: 4, SetCount: 1}
		bkt.Before.Drives = drives("ok", "offline", "ok", "ok")
		bkt.After.Drives = drives("ok", "offline", "ok", "ok")
		meta := madmin.HealResultItem{ResultIndex: 3, Type: madmin.HealItemMetadata, Detail: "disk-format", DiskCount: 4, SetCount: 1}
		meta.Before.Drives = drives("ok", "ok", "ok", "ok")
		meta.After.Drives = drives("ok", "ok", "ok", "ok")
		return madmin.HealTaskStatus{Summary: "finished", StartTime: at, HealSettings: madmin.HealOpts{Recursive: true, ScanMode: madmin.HealNormalScan}, Items: []madmin.HealResultItem{obj, bkt, meta}}
	})
	registerCanned("bg-heal", func() interface{} {
		return madmin.BgHealState{ScannedItemsCount: 1234, OfflineEndpoints: []string{}}
	})
	registerCanned("admin-top-locks", func() interface{} {
		return madmin.LockEntries{{Timestamp: time.Now().Add(-3 * time.Hour).UTC().Truncate(time.Second), Elapsed: 3 * time.Hour, Resource: "photos/a b.jpg", Type: "WRITE", Source: "[xl.go:10]", ServerList: []string{"127.0.0.1:9000"}, Owner: "node1", ID: "lock-1", Quorum: 1}}
	})
	registerCanned("pools", func() interface{} {
		return []madmin.PoolStatus{
			{ID: 0, CmdLine: "http://server{1...4}/disk{1...4}", LastUpdate: at},
			{ID: 1, CmdLine: "http://server{5...8}/disk{1...4}", LastUpdate: at, Decommission: &madmin.PoolDecommissionInfo{StartTime: at, StartSize: 1 << 30, TotalSize: 4 << 30, CurrentSize: 2 << 30}},
		}
	})
	registerCanned("pool-complete", func() interface{} {
		return madmin.PoolStatus{ID: 1, CmdLine: "http://server{5...8}/disk{1...4}", LastUpdate: at, Decommission: &madmin.PoolDecommissionInfo{StartTime: at, TotalSize: 4 << 30, CurrentSize: 4 << 30, Complete: true}}
	})
	registerCanned("rebalance-status", func() interface{} {
		return madmin.RebalanceStatus{ID: "rb-1", Pools: []madmin.RebalancePoolStatus{
			{ID: 0, Status: "Started", Used: 0.4567, Progress: madmin.RebalPoolProgress{NumObjects: 10, NumVersions: 12, Bytes: 1536, Bucket: "photos", Object: "a.jpg", Elapsed: 90 * time.Second, ETA: 30 * time.Minute}},
			{ID: 1, Status: "", Used: 0.1},
		}}
	})
	registerCanned("bucket-import", func() interface{} {
		return madmin.BucketMetaImportErrs{Buckets: map[string]madmin.BucketStatus{
			"photos": {Versioning: madmin.MetaStatus{IsSet: true}, Policy: madmin.MetaStatus{IsSet: true}},
			"logs":   {ObjectLock: madmin.MetaStatus{IsSet: true, Err: "object lock mismatch"}, Quota: madmin.MetaStatus{IsSet: true}},
		}}
	})
}
