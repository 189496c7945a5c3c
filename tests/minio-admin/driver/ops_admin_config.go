package main

// mc admin config … (issue 25): madmin-go v2.0.7's own configuration calls,
// as upstream mc makes them, and canned answers of the library's types.

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/minio/madmin-go"
)

type configArgs struct {
	SubSys  string `json:"subSys"`
	Key     string `json:"key"`
	Env     bool   `json:"env"`
	Kv      string `json:"kv"`
	Count   int    `json:"count"`
	ID      string `json:"id"`
	Payload string `json:"payload"`
}

func decodeConfigArgs(raw json.RawMessage) (configArgs, error) {
	var a configArgs
	err := json.Unmarshal(raw, &a)
	return a, err
}

func init() {
	register("config-help", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		h, err := adm.HelpConfigKV(ctx, a.SubSys, a.Key, a.Env)
		if err != nil {
			return err
		}
		print(h)
		return nil
	})
	// config get: the text, and the list upstream's --json prints (madmin ParseServerConfigOutput).
	register("config-get", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		b, err := adm.GetConfigKV(ctx, a.Key)
		if err != nil {
			return err
		}
		parsed, err := madmin.ParseServerConfigOutput(string(b))
		if err != nil {
			return err
		}
		print(map[string]interface{}{"text": string(b), "config": parsed})
		return nil
	})
	register("config-set", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		restart, err := adm.SetConfigKV(ctx, a.Kv)
		if err != nil {
			return err
		}
		print(map[string]bool{"restart": restart})
		return nil
	})
	register("config-reset", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		restart, err := adm.DelConfigKV(ctx, a.Kv)
		if err != nil {
			return err
		}
		print(map[string]bool{"restart": restart})
		return nil
	})
	register("config-history", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		e, err := adm.ListConfigHistoryKV(ctx, a.Count)
		if err != nil {
			return err
		}
		print(e)
		return nil
	})
	register("config-history-clear", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		return adm.ClearConfigHistoryKV(ctx, "all")
	})
	register("config-restore", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		return adm.RestoreConfigHistoryKV(ctx, a.ID)
	})
	register("config-export", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		b, err := adm.GetConfig(ctx)
		if err != nil {
			return err
		}
		print(string(b))
		return nil
	})
	register("config-import", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeConfigArgs(raw)
		if err != nil {
			return err
		}
		return adm.SetConfig(ctx, strings.NewReader(a.Payload))
	})

	registerCanned("config-help-keys", func() interface{} {
		return madmin.Help{KeysHelp: madmin.HelpKVS{
			{Key: "api", Description: "manage global HTTP API call specific features, such as throttling, authentication types, etc."},
			{Key: "notify_webhook", Description: "publish bucket notifications to webhook endpoints", MultipleTargets: true},
			{Key: "region", Description: "label the location of the server"},
		}}
	})
	registerCanned("config-help-webhook", func() interface{} {
		return madmin.Help{SubSys: "notify_webhook", Description: "publish bucket notifications to webhook endpoints", MultipleTargets: true, KeysHelp: madmin.HelpKVS{
			{Key: "endpoint", Description: "webhook server endpoint e.g. http://localhost:8080/minio/events", Type: "url"},
			{Key: "auth_token", Description: "opaque string or JWT authorization token", Optional: true, Type: "string"},
			{Key: "queue_limit", Description: "maximum limit for undelivered messages, defaults to '100000'", Optional: true, Type: "number"},
		}}
	})
	registerCanned("config-history", func() interface{} {
		return []madmin.ConfigHistoryEntry{
			{RestoreID: "2a57b8e6-8d4e-4e26-a8a4-3f5b9bd25c1f", CreateTime: time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC), Data: "region name=us-west-1"},
			{RestoreID: "9d0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b", CreateTime: time.Date(2024, 3, 5, 6, 7, 8, 0, time.UTC), Data: "compression enable=on extensions=.txt,.csv"},
		}
	})
}
