//go:build linux

package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/sweep"
)

// TestSweepOnRealSlurm starts a real single-node Slurm (munged, slurmctld
// and slurmd from Debian's slurm-wlm and munge packages, run directly as
// root in a private folder with their own ports and munge socket), submits
// an 8-point sweep whose half fails on purpose (its trace file is not
// there yet), reads the state from the folder, resubmits with the same
// command once the file exists, collects, and stops the daemons by their
// pid files. .ci/run installs the packages.
func TestSweepOnRealSlurm(t *testing.T) {
	start := time.Now()
	cl := realSlurm(t)

	work := t.TempDir()
	t.Chdir(work)
	a2a, err := os.ReadFile(filepath.Join(cl.repo, "examples", "alltoall8.csv"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, work, "early.csv", string(a2a))
	args := []string{"sweep", "--trace", "{early.csv,late.csv}", "--cca", "dcqcn,hpcc", "--seeds", "1..2",
		"--topology", "dolce-testbed", "--out", "sw", "--slurm", "--chunk", "2", "--array-max", "3", "--ccreplay", os.Args[0]}
	r := runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "8 points in 4 tasks") {
		t.Fatalf("submission: %s", r.stdout)
	}
	cl.waitIdle(t)
	st := runCLI(t, "sweep", "status", "sw", "--json")
	st.mustSucceed(t)
	if !strings.Contains(st.stdout, `"done": 4`) || !strings.Contains(st.stdout, `"failed": 4`) || !strings.Contains(st.stdout, "late.csv") {
		t.Fatalf("status after the first array, want 4 done and 4 failed on late.csv:\n%s\nslurm output: %s", st.stdout, slurmOutputs(filepath.Join("sw", sweep.StateDir)))
	}
	// The same command again, once the missing file exists: only the
	// failed points are submitted.
	writeFile(t, work, "late.csv", string(a2a))
	r = runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "4 points in 2 tasks (4 done, 0 running before)") {
		t.Fatalf("resubmission: %s", r.stdout)
	}
	cl.waitIdle(t)
	r = runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "nothing to submit: 8 points done") {
		t.Fatalf("third submission: %s\nslurm output: %s", r.stdout, slurmOutputs(filepath.Join("sw", sweep.StateDir)))
	}
	c := runCLI(t, "sweep", "collect", "sw")
	c.mustSucceed(t)
	if !strings.Contains(c.stdout, "8 rows (8 done, 0 failed") {
		t.Fatalf("collect: %s", c.stdout)
	}
	_, states, tab, err := sweep.Collect("sw")
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows != 8 || tab.Column("trace") == nil || tab.Column("fct_p99_ns") == nil {
		t.Fatalf("table: %d rows, columns %v", tab.Rows, tab.Columns)
	}
	for _, s := range states {
		if s.State != sweep.Done {
			t.Errorf("point %d: %s", s.Index, s.State)
		}
	}
	// Estimates take the same path: a sweep of kind estimate as a job
	// array, each task a ccreplay estimate into its point's folder. The
	// folder's name holds a % (in --output sbatch would read %j as the job
	// id): the tasks' output must still land in its state folder.
	est := "est%j"
	eargs := []string{"sweep", "--kind", "estimate", "--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=100us",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn,hpcc", "--out", est, "--slurm", "--ccreplay", os.Args[0]}
	runCLI(t, eargs...).mustSucceed(t)
	cl.waitIdle(t)
	for _, c := range []string{"dcqcn", "hpcc"} {
		if m, err := runfolder.ReadManifest(filepath.Join(est, "cca="+c)); err != nil || m.Mode != runfolder.ModeEstimate {
			t.Fatalf("estimate point %s on Slurm: %v\nslurm output: %s", c, err, slurmOutputs(filepath.Join(est, sweep.StateDir)))
		}
	}
	if outs, _ := filepath.Glob(filepath.Join(est, sweep.StateDir, "slurm", "submit-001_*.out")); len(outs) == 0 {
		t.Errorf("no task output in %s's state folder (the %% in its name was read as a pattern)", est)
	}
	cl.stop(t)
	t.Logf("a full cycle on real Slurm took %v", time.Since(start).Round(time.Millisecond))
}

type slurmCluster struct {
	dir, conf, repo string
}

// freePort returns a TCP port nobody listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startSlurm starts munged, slurmctld and slurmd in a private folder and
// waits until the node is idle; the daemons are stopped at cleanup.
// realSlurm skips the test where it may not start a real Slurm (not root,
// or CCREPLAY_NO_SLURM=1), fails it where Slurm's or munge's programs are
// missing, starts the single-node cluster (startSlurm) and points sbatch
// at it (SLURM_CONF); the tasks run this test binary as ccreplay
// (TestMain, CCREPLAY_TEST_MAIN), sbatch passing the environment on.
func realSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the real-Slurm test starts slurmctld, slurmd and munged as root; not root here, so it is skipped")
	}
	if os.Getenv("CCREPLAY_NO_SLURM") == "1" {
		t.Skip("CCREPLAY_NO_SLURM=1: the real-Slurm test is skipped")
	}
	for _, b := range []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"} {
		if _, err := exec.LookPath(b); err != nil {
			t.Fatalf("%s not found: install Debian's slurm-wlm and munge (apt-get install slurm-wlm munge; .ci/run does), or set CCREPLAY_NO_SLURM=1 to skip", b)
		}
	}
	cl := startSlurm(t)
	t.Setenv("SLURM_CONF", cl.conf)
	t.Setenv("CCREPLAY_TEST_MAIN", "1")
	return cl
}

func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "ccreplay-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	cl := &slurmCluster{dir: dir, conf: filepath.Join(dir, "slurm.conf"), repo: repo}
	t.Cleanup(func() { cl.stop(t); os.RemoveAll(dir) })
	for _, d := range []string{"munge", "state", "spool"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	m := filepath.Join(dir, "munge")
	run(t, "mungekey", "--create", "--keyfile", filepath.Join(m, "munge.key"))
	run(t, "munged", "--force", "--socket", filepath.Join(m, "munge.sock"), "--key-file", filepath.Join(m, "munge.key"),
		"--pid-file", filepath.Join(m, "munged.pid"), "--log-file", filepath.Join(m, "munged.log"), "--seed-file", filepath.Join(m, "seed"))
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	// The node line as slurmd sees this machine (CPUs, memory), named
	// after the host and reached on the loopback address.
	out := run(t, "slurmd", "-C")
	node, _, _ := strings.Cut(out, "\n")
	if _, rest, ok := strings.Cut(node, " "); ok && strings.HasPrefix(node, "NodeName=") {
		node = fmt.Sprintf("NodeName=%s NodeAddr=127.0.0.1 %s", host, rest)
	} else {
		t.Fatalf("slurmd -C: %q", out)
	}
	conf := fmt.Sprintf(`ClusterName=ccreplaytest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[4]s/munge/munge.sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
MpiDefault=none
ReturnToService=2
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/slurmctld.log
SlurmdLogFile=%[4]s/slurmd.log
%[5]s
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, freePort(t), freePort(t), dir, node)
	if err := os.WriteFile(cl.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "slurmctld", "-f", cl.conf, "-i")
	run(t, "slurmd", "-f", cl.conf)
	deadline := time.Now().Add(30 * time.Second)
	for {
		cmd := exec.Command("sinfo", "-h", "-o", "%t")
		cmd.Env = append(os.Environ(), "SLURM_CONF="+cl.conf)
		b, _ := cmd.Output()
		if strings.TrimSpace(string(b)) == "idle" {
			return cl
		}
		if time.Now().After(deadline) {
			logs, _ := os.ReadFile(filepath.Join(dir, "slurmctld.log"))
			t.Fatalf("the Slurm node is not idle after 30 s (sinfo: %q)\nslurmctld.log:\n%s", b, logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// run runs a command and returns its standard output; a failure fails the
// test with its output.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// waitIdle polls squeue (sbatch --wait backs off to 32 s) until no job is
// queued or running.
func (cl *slurmCluster) waitIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, err := exec.Command("squeue", "-h", "-o", "%i %t").Output()
		if err == nil && strings.TrimSpace(string(b)) == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs still queued after 60 s: %s %v", b, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// slurmOutputs are the output files of the Slurm tasks whose state is in
// stateDir (a sweep's or a link folder's), for failure messages.
func slurmOutputs(stateDir string) string {
	files, _ := filepath.Glob(filepath.Join(stateDir, "slurm", "*.out"))
	var b strings.Builder
	for _, f := range files {
		c, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "--- %s\n%s", f, c)
	}
	return b.String()
}

// stop ends the daemons by their pid files and waits for them to exit.
func (cl *slurmCluster) stop(t *testing.T) {
	for _, pf := range []string{"slurmd.pid", "slurmctld.pid", "munge/munged.pid"} {
		p := filepath.Join(cl.dir, pf)
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			continue
		}
		syscall.Kill(pid, syscall.SIGTERM)
		for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(50 * time.Millisecond)
		}
		if syscall.Kill(pid, 0) == nil {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		os.Remove(p)
	}
}
