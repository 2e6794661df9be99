// Command ccreplay replays datacenter workloads packet by packet through
// NIC and switch models under a congestion control algorithm and writes
// per-packet Parquet, per-flow records and the papers' metrics.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
