// Command etcdctl is the etcd client at the version of the etcd server above, for operators who
// check in etcd itself what the API server stored (encryption at rest, see docs/).
package main

import (
	"go.etcd.io/etcd/etcdctl/v3/ctlv3"
)

func main() {
	ctlv3.MustStart()
}
