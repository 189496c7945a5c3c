// Reference driver for the differential tests of mc's MinIO admin commands
// (issue 24): it performs one named operation with MinIO's own Go admin
// library (madmin-go, Debian's v2.0.7) against the given endpoint, the way
// upstream mc calls it, and prints what the library returned as JSON. It also
// encrypts and decrypts admin payloads (madmin EncryptData/DecryptData) and
// writes canned server answers from the library's own types.
//
// Built offline in GOPATH mode by tests/minio-admin/go-driver.ts:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build
//
// Usage: driver -op NAME [-endpoint HOST:PORT -access AK -secret SK -args JSON]
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/minio/madmin-go"
)

type args struct {
	Bucket  string   `json:"bucket"`
	Size    uint64   `json:"size"`
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Config  string   `json:"config"`
	Update  bool     `json:"update"`
	Read    bool     `json:"clusterRead"`
	Maint   bool     `json:"maintenance"`
	User    string   `json:"user"`
	Group   string   `json:"group"`
	Users   []string `json:"users"`
	Groups  []string `json:"groups"`
	Policy  []string `json:"policies"`
	Payload string   `json:"payload"`
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func print(v interface{}) {
	b, err := json.Marshal(v)
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(append(b, '\n'))
}

func main() {
	op := flag.String("op", "", "operation")
	endpoint := flag.String("endpoint", "", "host:port")
	access := flag.String("access", "", "access key")
	secret := flag.String("secret", "", "secret key")
	secure := flag.Bool("secure", false, "https (certificates not verified: the recorder's own)")
	rawArgs := flag.String("args", "{}", "operation arguments (JSON)")
	flag.Parse()
	var a args
	if err := json.Unmarshal([]byte(*rawArgs), &a); err != nil {
		fail(err)
	}

	// Payload crypto and canned answers need no server.
	switch *op {
	case "encrypt":
		in, _ := io.ReadAll(os.Stdin)
		out, err := madmin.EncryptData(*secret, in)
		if err != nil {
			fail(err)
		}
		os.Stdout.Write(out)
		return
	case "decrypt":
		out, err := madmin.DecryptData(*secret, os.Stdin)
		if err != nil {
			fail(err)
		}
		os.Stdout.Write(out)
		return
	case "canned":
		c, ok := cannedAnswers[a.Name]
		if !ok {
			fail(fmt.Errorf("unknown canned answer %q", a.Name))
		}
		print(c())
		return
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	transport := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	if strings.HasPrefix(*op, "anon-") {
		anon, err := madmin.NewAnonymousClient(*endpoint, *secure)
		if err != nil {
			fail(err)
		}
		anon.SetCustomTransport(transport)
		switch *op {
		case "anon-healthy":
			r, err := anon.Healthy(ctx, madmin.HealthOpts{ClusterRead: a.Read, Maintenance: a.Maint})
			if err != nil {
				fail(err)
			}
			print(r)
		case "anon-alive":
			for r := range anon.Alive(ctx, madmin.AliveOpts{}) {
				print(map[string]interface{}{"online": r.Online, "error": fmt.Sprint(r.Error)})
			}
		default:
			fail(fmt.Errorf("unknown op %q", *op))
		}
		return
	}
	adm, err := madmin.New(*endpoint, *access, *secret, *secure)
	if err != nil {
		fail(err)
	}
	adm.SetCustomTransport(transport)
	if *op == "ping-nodes" { // mc ping --distributed / --node NAME: the nodes from ServerInfo, then Alive on each
		anon, err := madmin.NewAnonymousClient(*endpoint, *secure)
		if err != nil {
			fail(err)
		}
		anon.SetCustomTransport(transport)
		info, err := adm.ServerInfo(ctx)
		if err != nil {
			fail(err)
		}
		servers := info.Servers
		if a.Name != "" {
			servers = nil
			for _, s := range info.Servers {
				if s.Endpoint == a.Name {
					servers = append(servers, s)
				}
			}
		}
		for r := range anon.Alive(ctx, madmin.AliveOpts{}, servers...) {
			print(map[string]interface{}{"host": r.Endpoint.Host, "online": r.Online, "failed": r.Error != nil})
		}
		return
	}
	if fn, ok := ops[*op]; ok {
		if err := fn(ctx, adm, json.RawMessage(*rawArgs)); err != nil {
			fail(err)
		}
		return
	}
	if err := run(ctx, adm, *op, a); err != nil {
		fail(err)
	}
}

// An operation registered by one of the ops_*.go files: each file decodes
// its own arguments, so areas can be added without touching this one.
type opFunc func(ctx context.Context, adm *madmin.AdminClient, raw json.RawMessage) error

var ops = map[string]opFunc{}

// cannedAnswers builds a server answer from the library's own types; the
// caller encrypts it with -secret when the server encrypts it.
var cannedAnswers = map[string]func() interface{}{}

func register(name string, fn opFunc) {
	if _, dup := ops[name]; dup {
		panic("operation registered twice: " + name)
	}
	ops[name] = fn
}

func registerCanned(name string, fn func() interface{}) {
	if _, dup := cannedAnswers[name]; dup {
		panic("canned answer registered twice: " + name)
	}
	cannedAnswers[name] = fn
}
