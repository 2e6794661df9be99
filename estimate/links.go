package estimate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/version"
)

// A link folder (estimate --links-dir, and --slurm) keeps an estimate's
// link simulations, each in a folder of its own, as a tracked plan of the
// batch executor: an interrupted or failed estimate goes on from the links
// done, and a Slurm job array runs them on other machines.
const (
	// LinksManifestFile is the link folder's manifest at its root: the
	// estimate's inputs and its simulated links with their hashes.
	LinksManifestFile = "estimate-links.json"
	// LinksKind is the manifest's "kind".
	LinksKind = "estimate-links"
	// LinksStateDir holds the markers of running and failed link
	// simulations and the Slurm scripts; hidden.
	LinksStateDir = ".estimate"
	// OutcomeFile is written into each link's folder, beside the link
	// network's own run folder files: the LinkSim the estimate reads.
	OutcomeFile = "link.json"
)

// LinkItem is one simulated link of a link folder.
type LinkItem struct {
	Index int    `json:"index"` // among the plan's links
	Link  string `json:"link"`  // "tor0:4 -> agg1"
	Dir   string `json:"dir"`   // its folder under the root, "link=INDEX-HASH12" (LinkDir)
	Hash  string `json:"hash"`  // its configuration's hash (LinkItems)
}

// LinksManifest is estimate-links.json.
type LinksManifest struct {
	SchemaVersion string `json:"schema_version"`
	Kind          string `json:"kind"`
	Tool          string `json:"tool"`
	// Scenario is the hash of the estimate's scenario (its inputs and the
	// files they name, as the caller computes it): the link simulations
	// of equal scenarios are the same.
	Scenario string `json:"scenario"`
	// Inputs are what the caller needs to plan the estimate again (a
	// Slurm task does), as it wrote them.
	Inputs json.RawMessage `json:"inputs"`
	// Links are the links simulated, in link order.
	Links []LinkItem `json:"links"`
}

// linkRecord is a link folder's batch record.
type linkRecord struct {
	Hash  string `json:"hash"`
	Index int    `json:"index"`
	Link  string `json:"link"`
}

// LinkNetRevision numbers the construction of the link networks
// (BuildLinkNet); it is in each link's hash, so that a link folder made
// with another construction is simulated again rather than reused. 2: the
// switch feeding the link has the full run's ports and ingress ports; 3:
// each flow's algorithm is given its full-run path's base RTT and hops
// (replay.Config.FlowCC). With ReverseAcksPackets the hash also says so
// (the link networks then carry the reverse flows; the hash of a link
// under ReverseAcksRate is what it was before that choice existed).
const LinkNetRevision = 3

// LinkItems lists the plan's simulated links under scenario: each one's
// hash is the SHA-256 of ccreplay's version, the link network's
// construction (LinkNetRevision), the scenario and the link,
// so a link's simulation is reused whatever the clustering settings that
// chose it, and run again when the version or the inputs change.
func (p *Plan) LinkItems(scenario string) []LinkItem {
	out := make([]LinkItem, len(p.sim))
	rev := ""
	if p.opt.ReverseAcks == ReverseAcksPackets {
		rev = "reverse acks packets\n"
	}
	if p.opt.SenderNICs != SenderNICsAlone {
		rev += "sender nics " + p.opt.SenderNICs + "\n"
	}
	for k, i := range p.sim {
		name := p.LinkName(i)
		h := sha256.Sum256([]byte(fmt.Sprintf("ccreplay estimate link\nversion %s\nlink network %d\n%sscenario %s\nlink %d %s\nflows %d\n",
			version.Version, LinkNetRevision, rev, scenario, i, name, len(p.links[i].Flows))))
		hash := hex.EncodeToString(h[:])
		out[k] = LinkItem{Index: i, Link: name, Dir: LinkDir(i, hash), Hash: hash}
	}
	return out
}

// LinkDir is the folder of link index's simulation of the given hash in a
// link folder: "link=INDEX-" and the hash's first 12 hex digits. The hash
// is in the name so that estimates whose link networks differ (another
// construction, another ccreplay version, other inputs) keep their
// simulations of one link side by side rather than replacing each other's,
// also while they run at once on one link folder. (Link folders written
// before the 47th session name them "link=INDEX"; their simulations are
// run again.)
func LinkDir(index int, hash string) string {
	return "link=" + strconv.Itoa(index) + "-" + hash[:min(12, len(hash))]
}

// LinksPlan is the batch plan of a link folder's items; run, when not
// nil, fills an item's folder (nil: the plan is only read, by status).
func LinksPlan(items []LinkItem, run func(ctx context.Context, it LinkItem, dir string) error) *batch.Plan {
	pl := &batch.Plan{State: LinksStateDir, Items: make([]batch.Item, len(items))}
	for k, it := range items {
		bi := batch.Item{Dir: it.Dir, Labels: []batch.Label{{Key: "link", Value: strconv.Itoa(it.Index)}}, Hash: it.Hash,
			Record: linkRecord{Hash: it.Hash, Index: it.Index, Link: it.Link}, Marker: it.Dir}
		if run != nil {
			bi.Run = func(ctx context.Context, dir string) error { return run(ctx, it, dir) }
		}
		pl.Items[k] = bi
	}
	return pl
}

// Batch is the plan's link simulations as a tracked batch plan under
// scenario: each item writes the link network's run folder (flows,
// messages, ports, summary.json: `ccreplay metrics` reads it) and the
// link's outcome (OutcomeFile).
func (p *Plan) Batch(scenario string) *batch.Plan {
	return LinksPlan(p.LinkItems(scenario), func(ctx context.Context, it LinkItem, dir string) error {
		return p.writeLink(ctx, it.Index, dir)
	})
}

// writeLink simulates link i into dir.
func (p *Plan) writeLink(ctx context.Context, i int, dir string) error {
	c, tr, err := p.linkConfig(i)
	if err != nil {
		return fmt.Errorf("link simulation of %s: %w", p.LinkName(i), err)
	}
	start := time.Now()
	sc := &runner.Scenario{Config: &c, Trace: tr, TraceName: "link network of " + p.LinkName(i)}
	_, _, err = runner.Run(ctx, sc, dir, func(dir string, res *replay.Result, man *runner.Manifest) error {
		s, err := p.outcome(i, res, time.Since(start))
		if err != nil {
			return err
		}
		man.Files = append([]string{OutcomeFile}, man.Files...)
		return output.WriteJSONAtomic(filepath.Join(dir, OutcomeFile), s)
	})
	if err != nil {
		return fmt.Errorf("link simulation of %s: %w", p.LinkName(i), err)
	}
	return nil
}

// PrepareLinks makes root a link folder for m: root may not exist, be
// empty or hold a link folder (whose links of the same hash are kept);
// anything else is refused (errors.Is(err, runfolder.ErrRefused)). It
// writes the manifest atomically.
func PrepareLinks(root string, m *LinksManifest) error {
	switch what, err := runfolder.Inspect(root); {
	case err != nil:
		return fmt.Errorf("%w: --links-dir %s: %v", runfolder.ErrRefused, root, err)
	case what.Kind == "" || what.Kind == runfolder.KindEmpty:
	case what.Kind == runfolder.KindForeign:
		if _, err := ReadLinksManifest(root); err != nil && !onlyLinkEntries(root) {
			return fmt.Errorf("%w: --links-dir %s: folder is not empty and not an estimate's link folder (it holds %q); give a new or empty folder", runfolder.ErrRefused, root, what.Example)
		}
	default:
		return fmt.Errorf("%w: --links-dir %s: holds a %s, not an estimate's link folder; give another folder", runfolder.ErrRefused, root, what.Describe())
	}
	if err := os.MkdirAll(filepath.Join(root, LinksStateDir), 0o755); err != nil {
		return err
	}
	m.SchemaVersion, m.Kind, m.Tool = runfolder.Version, LinksKind, "ccreplay "+version.Version
	return output.WriteJSONAtomic(filepath.Join(root, LinksManifestFile), m)
}

// onlyLinkEntries says whether every entry of root is one a link folder
// holds (its manifest and state folder, link simulations, their staging
// folders and the manifest's temporary file): a link folder another
// estimate is creating at this moment, whose manifest is not yet in place.
func onlyLinkEntries(root string) bool {
	ents, err := os.ReadDir(root)
	if err != nil {
		return false
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case n == LinksManifestFile, n == LinksStateDir, strings.HasPrefix(n, "link="), strings.HasPrefix(n, ".link="),
			strings.HasPrefix(n, LinksManifestFile+".tmp-"):
		default:
			return false
		}
	}
	return true
}

// ReadLinksManifest reads root's estimate-links.json; errors name the
// file.
func ReadLinksManifest(root string) (*LinksManifest, error) {
	m, err := ReadLinksManifestFile(filepath.Join(root, LinksManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: not an estimate's link folder (no %s)", root, LinksManifestFile)
	}
	return m, err
}

// ReadLinksManifestFile reads a link manifest from the file p (the link
// folder's, or the copy a Slurm submission keeps beside its list); errors
// name the file.
func ReadLinksManifestFile(p string) (*LinksManifest, error) {
	b, err := limits.ReadFile(p, "an "+LinksManifestFile, limits.MaxSweepJSONBytes, true)
	if err != nil {
		return nil, err
	}
	var m LinksManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %s", p, limits.JSONError(err))
	}
	if m.Kind != LinksKind || !strings.HasPrefix(m.SchemaVersion, "ccreplay.") {
		return nil, fmt.Errorf("%s: not an estimate's link manifest", p)
	}
	for k, it := range m.Links {
		if it.Index < 0 || it.Hash == "" || !isHex(it.Hash) || (it.Dir != LinkDir(it.Index, it.Hash) && it.Dir != "link="+strconv.Itoa(it.Index)) {
			return nil, fmt.Errorf("%s: link %d: bad folder %q or hash", p, k, it.Dir)
		}
	}
	return &m, nil
}

// isHex says whether s is lower-case hexadecimal digits only.
func isHex(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return (r < '0' || r > '9') && (r < 'a' || r > 'f') })
}

// SameLinks says whether a plan made again (by a Slurm task) gives the
// manifest's links, or what differs.
func SameLinks(m *LinksManifest, items []LinkItem) error {
	if len(items) != len(m.Links) {
		return fmt.Errorf("the estimate's inputs now give %d link simulations, the link folder lists %d: they changed since it was planned; run the estimate again", len(items), len(m.Links))
	}
	for k := range items {
		if items[k] != m.Links[k] {
			return fmt.Errorf("link simulation %d: the inputs now give %s (%s), the link folder %s (%s): they changed since it was planned; run the estimate again",
				k, items[k].Link, items[k].Hash[:12], m.Links[k].Link, m.Links[k].Hash[:12])
		}
	}
	return nil
}

// ErrLinksNotDone is returned by Collect when some link simulations are
// not done.
var ErrLinksNotDone = errors.New("link simulations not done")

// Collect reads the outcomes of the plan's link simulations from root
// (a link folder for scenario), for Assemble: every one must be done.
func (p *Plan) Collect(root, scenario string) ([]*LinkSim, error) {
	items := p.LinkItems(scenario)
	states := batch.States(root, LinksPlan(items, nil))
	if c := batch.Tally(states); c.Done != c.Total {
		return nil, fmt.Errorf("%w: %d of %d done, %d failed, %d running, %d pending in %s", ErrLinksNotDone, c.Done, c.Total, c.Failed, c.Running, c.Pending, root)
	}
	sims := make([]*LinkSim, len(p.links))
	for _, it := range items {
		path := filepath.Join(root, filepath.FromSlash(it.Dir), OutcomeFile)
		b, err := limits.ReadFile(path, "a link outcome", limits.MaxRunJSONBytes, true)
		if err != nil {
			return nil, err
		}
		var s LinkSim
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("%s: %s", path, limits.JSONError(err))
		}
		if err := p.check(it.Index, &s); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		sims[it.Index] = &s
	}
	return sims, nil
}

// Todo lists the items of a link folder to (re)submit: neither done nor
// running.
func Todo(states []batch.ItemState) []int {
	var out []int
	for i, s := range states {
		if s.State != batch.Done && s.State != batch.Running {
			out = append(out, i)
		}
	}
	return slices.Clip(out)
}

// ScenarioHash is the hex SHA-256 naming an estimate's scenario for its
// link folder: ccreplay's version, the inputs as the caller gives them
// (its flags, say), the bytes of the files they name (a missing file
// hashes as "missing"), and the scenario as resolved: every message of
// the trace and every port of the topology. Equal hashes mean the same
// link simulations.
func ScenarioHash(inputs []byte, files []string, p *Plan) string {
	h := sha256.New()
	fmt.Fprintf(h, "ccreplay estimate scenario\nversion %s\ninputs %s\n", version.Version, inputs)
	for _, name := range files {
		fmt.Fprintf(h, "file %s %s\n", name, fileHash(name))
	}
	t := p.cfg.Topology
	fmt.Fprintf(h, "topology %s %d %d\n", t.Name, t.NumHosts, len(t.Nodes))
	for i := range t.Nodes {
		for _, pt := range t.Nodes[i].Ports {
			fmt.Fprintf(h, "%d %d %d %d %d\n", i, pt.Peer, pt.PeerPort, pt.Rate, pt.Delay)
		}
	}
	fmt.Fprintf(h, "trace %d hosts %d messages\n", p.tr.Hosts, len(p.tr.Messages))
	for i := range p.tr.Messages {
		m := &p.tr.Messages[i]
		fmt.Fprintf(h, "%d %d %d %d %d %d %d %v %d %d\n", m.ID, m.Src, m.Dst, m.Bytes, m.Release, m.FlowID, m.CollectiveID, m.Deps, m.Gap, m.Priority)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fileHash is the hex SHA-256 of a file's bytes, "missing" when it cannot
// be opened.
func fileHash(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "missing"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable"
	}
	return hex.EncodeToString(h.Sum(nil))
}
