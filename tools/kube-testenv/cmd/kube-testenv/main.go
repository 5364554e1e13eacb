// Command kube-testenv runs a real etcd and kube-apiserver on loopback ports chosen at run time,
// with RBAC, token identities for an admin, Krypton and a few unprivileged users, and optionally an
// encryption-at-rest config. It prints one line, "KUBE_TESTENV_READY <state JSON>", once /readyz
// answers and the manifests of --deploy exist, then runs until SIGINT/SIGTERM or, with
// --stop-on-stdin-eof, until its parent closes stdin. SIGHUP restarts kube-apiserver on the same
// etcd (it prints "KUBE_TESTENV_RESTARTED" once ready again). Its children die with it (Pdeathsig), so a
// crashed test run leaves no etcd or apiserver behind.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// identity is one principal of the test cluster. Users other than admin and krypton hold no
// rights until a test grants them some, so that every access a test observes is one it granted.
type identity struct {
	Key    string   `json:"key"`
	User   string   `json:"user"`
	Groups []string `json:"groups"`
	Token  string   `json:"-"`
	// Kubeconfig is the path of a kubeconfig that authenticates with this identity's token.
	Kubeconfig string `json:"kubeconfig"`
}

type state struct {
	Server      string              `json:"server"`
	CAFile      string              `json:"caFile"`
	Dir         string              `json:"dir"`
	EtcdURL     string              `json:"etcdUrl"`
	PID         int                 `json:"pid"`
	Identities  map[string]identity `json:"identities"`
	Encryption  string              `json:"encryptionConfig,omitempty"`
	StartedInMs int64               `json:"startedInMs"`
}

func defaultIdentities() []identity {
	return []identity{
		{Key: "admin", User: "krypton-test-admin", Groups: []string{"system:masters"}},
		// Krypton's own identity: the ServiceAccount that deploy/ binds. RBAC matches a
		// ServiceAccount subject by exactly this user name, so those bindings hold for this token.
		{Key: "krypton", User: "system:serviceaccount:krypton-system:krypton", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:krypton-system"}},
		{Key: "alice", User: "alice", Groups: []string{"team-a"}},
		{Key: "bob", User: "bob", Groups: []string{"team-b", "team-c"}},
		{Key: "carol", User: "carol", Groups: nil},
	}
}

func main() {
	dir := flag.String("dir", "", "state directory (created; holds PKI, kubeconfigs, etcd data and logs)")
	binDir := flag.String("bin", "", "directory holding etcd and kube-apiserver (default: this executable's directory)")
	encryption := flag.String("encryption-config", "", "optional EncryptionConfiguration file for --encryption-provider-config")
	stopOnEOF := flag.Bool("stop-on-stdin-eof", false, "stop when stdin is closed (for a parent process that may die)")
	ephemeral := flag.Bool("ephemeral", false, "remove the state directory on shutdown")
	deploy := flag.String("deploy", "", "directory whose kustomization.yaml lists the manifests to apply (the repository's deploy/)")
	flag.Parse()
	if *dir == "" {
		fatal(errors.New("--dir is required"))
	}
	// Required rather than optional: without Krypton's rights every test of Krypton fails with
	// 403s far from the cause, so a caller that forgot the flag should fail here instead.
	if *deploy == "" {
		fatal(errors.New("--deploy is required"))
	}
	// Read before anything starts, so that a bad manifest costs no etcd or apiserver start.
	objs, err := loadDeploy(*deploy)
	if err != nil {
		fatal(err)
	}
	if *binDir == "" {
		exe, err := os.Executable()
		if err != nil {
			fatal(err)
		}
		*binDir = filepath.Dir(exe)
	}
	absDir, err := filepath.Abs(*dir)
	if err != nil {
		fatal(err)
	}
	env := &testenv{dir: absDir, bin: *binDir, encryption: *encryption, deploy: objs}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if *stopOnEOF {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			cancel()
		}()
	}
	st, err := env.start(ctx)
	if err != nil {
		env.stop()
		fatal(err)
	}
	line, _ := json.Marshal(st)
	fmt.Printf("KUBE_TESTENV_READY %s\n", line)
	// SIGHUP restarts kube-apiserver on the same etcd, for key-rotation tests.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case <-hup:
			if err := env.restartAPIServer(ctx); err != nil {
				fmt.Fprintf(os.Stderr, "kube-testenv: restarting kube-apiserver failed: %v\n", err)
				env.stop()
				os.Exit(1)
			}
			fmt.Println("KUBE_TESTENV_RESTARTED")
		case err := <-env.exited:
			fmt.Fprintf(os.Stderr, "kube-testenv: a control-plane process exited: %v (see logs in %s)\n", err, absDir)
			env.stop()
			os.Exit(1)
		}
	}
	env.stop()
	if *ephemeral {
		_ = os.RemoveAll(absDir)
	}
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "kube-testenv: %v\n", err)
	os.Exit(1)
}

type testenv struct {
	dir        string
	bin        string
	encryption string
	deploy     []object
	procs      []proc
	exited     chan error
	// What a restart of the apiserver needs again.
	apiArgs    []string
	server     string
	caFile     string
	adminToken string
}

type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	// stopping marks an exit that was asked for (a restart), which is not a crash.
	stopping *atomic.Bool
}

func (e *testenv) start(ctx context.Context) (*state, error) {
	begin := time.Now()
	e.exited = make(chan error, 2)
	for _, sub := range []string{"pki", "kubeconfig", "etcd"} {
		if err := os.MkdirAll(filepath.Join(e.dir, sub), 0o700); err != nil {
			return nil, err
		}
	}
	ids := defaultIdentities()
	for i := range ids {
		ids[i].Token = randomHex(24)
	}
	pki, err := writePKI(filepath.Join(e.dir, "pki"))
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := writeTokenFile(filepath.Join(e.dir, "pki", "tokens.csv"), ids); err != nil {
		return nil, err
	}
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	server := fmt.Sprintf("https://127.0.0.1:%d", ports[2])

	if err := e.spawn(ctx, "etcd",
		"--name=testenv",
		"--data-dir="+filepath.Join(e.dir, "etcd"),
		"--listen-client-urls="+etcdURL,
		"--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=testenv="+peerURL,
		// The data is thrown away after the run; fsync only costs time here.
		"--unsafe-no-fsync",
		"--log-level=warn",
	); err != nil {
		return nil, err
	}
	if err := waitFor(ctx, 60*time.Second, func() error { return httpOK(http.DefaultClient, etcdURL+"/health", "") }); err != nil {
		return nil, fmt.Errorf("etcd did not become healthy: %w", err)
	}

	args := []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(ports[2]),
		"--cert-dir=" + filepath.Join(e.dir, "pki"),
		"--tls-cert-file=" + pki.servingCert,
		"--tls-private-key-file=" + pki.servingKey,
		"--client-ca-file=" + pki.caCert,
		"--token-auth-file=" + filepath.Join(e.dir, "pki", "tokens.csv"),
		"--anonymous-auth=false",
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + pki.saKey,
		"--service-account-signing-key-file=" + pki.saKey,
		"--api-audiences=https://kubernetes.default.svc",
		"--service-cluster-ip-range=10.96.0.0/24",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"--v=1",
	}
	if e.encryption != "" {
		abs, err := filepath.Abs(e.encryption)
		if err != nil {
			return nil, err
		}
		e.encryption = abs
		args = append(args, "--encryption-provider-config="+abs, "--encryption-provider-config-automatic-reload=true")
	}
	if err := e.spawn(ctx, "kube-apiserver", args...); err != nil {
		return nil, err
	}
	e.apiArgs, e.server, e.caFile = args, server, pki.caCert

	ids, err = writeKubeconfigs(filepath.Join(e.dir, "kubeconfig"), server, pki.caCert, ids)
	if err != nil {
		return nil, err
	}
	admin := ids[0]
	e.adminToken = admin.Token
	client, err := tlsClient(pki.caCert)
	if err != nil {
		return nil, err
	}
	if err := waitFor(ctx, 120*time.Second, func() error { return httpOK(client, server+"/readyz", admin.Token) }); err != nil {
		return nil, fmt.Errorf("kube-apiserver did not become ready: %w (log: %s)", err, filepath.Join(e.dir, "kube-apiserver.log"))
	}
	for _, obj := range e.deploy {
		if err := apply(ctx, client, server, admin.Token, obj); err != nil {
			return nil, fmt.Errorf("apply %s: %w", obj.source, err)
		}
	}
	byKey := map[string]identity{}
	for _, id := range ids {
		byKey[id.Key] = id
	}
	st := &state{
		Server: server, CAFile: pki.caCert, Dir: e.dir, EtcdURL: etcdURL, PID: os.Getpid(),
		Identities: byKey, Encryption: e.encryption, StartedInMs: time.Since(begin).Milliseconds(),
	}
	data, _ := json.MarshalIndent(st, "", "  ")
	if err := os.WriteFile(filepath.Join(e.dir, "state.json"), data, 0o600); err != nil {
		return nil, err
	}
	return st, nil
}

func (e *testenv) spawn(ctx context.Context, name string, args ...string) error {
	logFile, err := os.OpenFile(filepath.Join(e.dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(e.bin, name), args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	// Pdeathsig ends the child if this process dies without running stop(), even by SIGKILL.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("start %s: %w", name, err)
	}
	p := proc{name: name, cmd: cmd, done: make(chan struct{}), stopping: &atomic.Bool{}}
	e.procs = append(e.procs, p)
	go func() {
		err := cmd.Wait()
		logFile.Close()
		close(p.done)
		if ctx.Err() == nil && !p.stopping.Load() {
			e.exited <- fmt.Errorf("%s: %v", name, err)
		}
	}()
	return nil
}

// restartAPIServer stops kube-apiserver and starts it again with the same flags on the same etcd
// and port, re-reading its files (an encryption config whose keys were rotated, for example).
func (e *testenv) restartAPIServer(ctx context.Context) error {
	for i, p := range e.procs {
		if p.name != "kube-apiserver" {
			continue
		}
		p.stopping.Store(true)
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(15 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		e.procs = append(e.procs[:i], e.procs[i+1:]...)
		break
	}
	if err := e.spawn(ctx, "kube-apiserver", e.apiArgs...); err != nil {
		return err
	}
	client, err := tlsClient(e.caFile)
	if err != nil {
		return err
	}
	return waitFor(ctx, 120*time.Second, func() error { return httpOK(client, e.server+"/readyz", e.adminToken) })
}

// stop ends the apiserver before etcd, so that the apiserver never logs a storm of etcd errors,
// and escalates to SIGKILL when a process ignores SIGTERM.
func (e *testenv) stop() {
	for i := len(e.procs) - 1; i >= 0; i-- {
		p := e.procs[i]
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(15 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}
}

type pkiFiles struct{ caCert, servingCert, servingKey, saKey string }

func writePKI(dir string) (*pkiFiles, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "kube-testenv-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.96.0.1")},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	files := &pkiFiles{
		caCert:      filepath.Join(dir, "ca.crt"),
		servingCert: filepath.Join(dir, "apiserver.crt"),
		servingKey:  filepath.Join(dir, "apiserver.key"),
		saKey:       filepath.Join(dir, "sa.key"),
	}
	if err := writePEM(files.caCert, "CERTIFICATE", caDER); err != nil {
		return nil, err
	}
	if err := writePEM(files.servingCert, "CERTIFICATE", srvDER); err != nil {
		return nil, err
	}
	if err := writeECKey(files.servingKey, srvKey); err != nil {
		return nil, err
	}
	if err := writeECKey(files.saKey, saKey); err != nil {
		return nil, err
	}
	return files, nil
}

func writeECKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "EC PRIVATE KEY", der)
}

func writePEM(path, kind string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600)
}

func writeTokenFile(path string, ids []identity) error {
	var b strings.Builder
	for _, id := range ids {
		// token,user,uid,"group1,group2"
		fmt.Fprintf(&b, "%s,%s,%s", id.Token, id.User, id.User)
		if len(id.Groups) > 0 {
			fmt.Fprintf(&b, ",\"%s\"", strings.Join(id.Groups, ","))
		}
		b.WriteString("\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

func writeKubeconfigs(dir, server, caFile string, ids []identity) ([]identity, error) {
	out := make([]identity, len(ids))
	for i, id := range ids {
		// JSON is valid YAML, so kubectl and @kubernetes/client-node both read these files.
		cfg := map[string]any{
			"apiVersion":      "v1",
			"kind":            "Config",
			"current-context": "testenv",
			"clusters": []any{map[string]any{"name": "testenv", "cluster": map[string]any{
				"server": server, "certificate-authority": caFile,
			}}},
			"users": []any{map[string]any{"name": id.Key, "user": map[string]any{"token": id.Token}}},
			"contexts": []any{map[string]any{"name": "testenv", "context": map[string]any{
				"cluster": "testenv", "user": id.Key,
			}}},
		}
		data, _ := json.MarshalIndent(cfg, "", "  ")
		id.Kubeconfig = filepath.Join(dir, id.Key+".kubeconfig")
		if err := os.WriteFile(id.Kubeconfig, data, 0o600); err != nil {
			return nil, err
		}
		out[i] = id
	}
	return out, nil
}

type object struct {
	source string // file and object, for errors
	path   string
	body   map[string]any
}

// kustomization is the part of kustomize's format that the launcher implements: a list of files
// of the same directory. Any other field (patches, a namespace, bases) would make the test cluster
// differ from what `kubectl apply -k` installs, so strict decoding refuses it.
type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Resources  []string `json:"resources"`
}

// kinds are the objects deploy/ may hold. Knowing their REST paths here spares the launcher API
// discovery; a kind missing here is refused rather than guessed.
var kinds = []struct {
	kind, apiVersion, resource string
	namespaced                 bool
}{
	{"Namespace", "v1", "namespaces", false},
	{"ServiceAccount", "v1", "serviceaccounts", true},
	{"ClusterRole", "rbac.authorization.k8s.io/v1", "clusterroles", false},
	{"ClusterRoleBinding", "rbac.authorization.k8s.io/v1", "clusterrolebindings", false},
	{"Role", "rbac.authorization.k8s.io/v1", "roles", true},
	{"RoleBinding", "rbac.authorization.k8s.io/v1", "rolebindings", true},
}

// loadDeploy reads the objects that dir/kustomization.yaml lists, in file and document order.
func loadDeploy(dir string) ([]object, error) {
	kfile := filepath.Join(dir, "kustomization.yaml")
	data, err := os.ReadFile(kfile)
	if err != nil {
		return nil, err
	}
	var k kustomization
	if err := yaml.UnmarshalStrict(data, &k); err != nil {
		return nil, fmt.Errorf("%s: %w (the launcher reads only apiVersion, kind and resources)", kfile, err)
	}
	if len(k.Resources) == 0 {
		return nil, fmt.Errorf("%s lists no resources", kfile)
	}
	var objs []object
	for _, name := range k.Resources {
		if name == "." || name == ".." || name != filepath.Base(name) {
			return nil, fmt.Errorf("%s: resource %q is not a file name of that directory (the launcher does not implement kustomize bases or URLs)", kfile, name)
		}
		docs, err := readObjects(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		objs = append(objs, docs...)
	}
	return objs, nil
}

func readObjects(file string) ([]object, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var objs []object
	docs := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := docs.Read()
		if err == io.EOF {
			return objs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		var body map[string]any
		if err := json.Unmarshal(js, &body); err != nil {
			return nil, fmt.Errorf("%s: a document is not an object: %w", file, err)
		}
		if body == nil {
			continue // only comments
		}
		obj, err := toObject(body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		obj.source = filepath.Base(file) + ": " + obj.source
		objs = append(objs, obj)
	}
}

func toObject(body map[string]any) (object, error) {
	apiVersion, _ := body["apiVersion"].(string)
	kind, _ := body["kind"].(string)
	meta, _ := body["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	namespace, _ := meta["namespace"].(string)
	for _, k := range kinds {
		if k.kind != kind || k.apiVersion != apiVersion {
			continue
		}
		if name == "" {
			return object{}, fmt.Errorf("%s without metadata.name", kind)
		}
		path := "/apis/" + apiVersion
		if apiVersion == "v1" {
			path = "/api/v1"
		}
		if k.namespaced {
			// kubectl would fall back to its context's namespace; here it must be written down.
			if namespace == "" {
				return object{}, fmt.Errorf("%s %s without metadata.namespace", kind, name)
			}
			path += "/namespaces/" + namespace
		}
		return object{source: kind + " " + name, path: path + "/" + k.resource, body: body}, nil
	}
	supported := make([]string, len(kinds))
	for i, k := range kinds {
		supported[i] = k.apiVersion + " " + k.kind
	}
	return object{}, fmt.Errorf("%s %s %q is not supported (only %s)", apiVersion, kind, name, strings.Join(supported, ", "))
}

func apply(ctx context.Context, client *http.Client, server, token string, obj object) error {
	body, _ := json.Marshal(obj.body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, server+obj.path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusConflict {
		return nil
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return fmt.Errorf("HTTP %d: %s", resp.StatusCode, msg)
}

func tlsClient(caFile string) (*http.Client, error) {
	pemData, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemData)
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}, nil
}

func httpOK(client *http.Client, url, token string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: HTTP %d", url, resp.StatusCode)
	}
	return nil
}

func waitFor(ctx context.Context, limit time.Duration, check func() error) error {
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		if last = check(); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return last
}

func freePorts(n int) ([]int, error) {
	var ports []int
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
