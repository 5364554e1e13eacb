// Command etcd is the etcd server at the version that the pinned kube-apiserver release is built
// against. The etcd main package lives in a module that is not part of kube-apiserver's graph, so
// this calls the server module's own entry point.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
