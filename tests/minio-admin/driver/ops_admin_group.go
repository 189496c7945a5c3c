package main

// mc admin group … (issue 25), with madmin-go v2.0.7's own calls as
// upstream mc makes them.

import (
	"context"
	"encoding/json"

	"github.com/minio/madmin-go"
)

type groupArgs struct {
	Group   string   `json:"group"`
	Members []string `json:"members"`
	Status  string   `json:"status"`
}

func decodeGroupArgs(raw json.RawMessage) (groupArgs, error) {
	var a groupArgs
	err := json.Unmarshal(raw, &a)
	if a.Members == nil {
		a.Members = []string{} // upstream builds the list from the arguments: never nil
	}
	return a, err
}

func init() {
	register("group-add", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeGroupArgs(raw)
		if err != nil {
			return err
		}
		return adm.UpdateGroupMembers(ctx, madmin.GroupAddRemove{Group: a.Group, Members: a.Members, IsRemove: false})
	})
	register("group-remove", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeGroupArgs(raw)
		if err != nil {
			return err
		}
		return adm.UpdateGroupMembers(ctx, madmin.GroupAddRemove{Group: a.Group, Members: a.Members, IsRemove: true})
	})
	register("group-info", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeGroupArgs(raw)
		if err != nil {
			return err
		}
		gd, err := adm.GetGroupDescription(ctx, a.Group)
		if err != nil {
			return err
		}
		print(gd)
		return nil
	})
	register("group-list", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		g, err := adm.ListGroups(ctx)
		if err != nil {
			return err
		}
		print(g)
		return nil
	})
	register("group-status", func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error {
		a, err := decodeGroupArgs(raw)
		if err != nil {
			return err
		}
		return adm.SetGroupStatus(ctx, a.Group, madmin.GroupStatus(a.Status))
	})
	registerCanned("group-list", func() interface{} {
		return []string{"allcents", "ops"}
	})
}
