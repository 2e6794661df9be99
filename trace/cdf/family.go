package cdf

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// builtinFS holds the distributions built into ccreplay, each with a
// comment block naming its source, the workload, its units, the sampling
// convention and its mean, and each source folder with the LICENSE and
// NOTICE its licence asks for (see builtin/README.md).
//
//go:embed builtin
var builtinFS embed.FS

// builtinRoot is the folder of builtinFS that holds the distributions.
const builtinRoot = "builtin"

// Family is a named distribution.
type Family struct {
	// Name is what users write, e.g. "websearch".
	Name string
	// File is the path of the family's file under a user's CDF data
	// folder (data=DIR, holding hpcc/, opera/ and homa/ with the CDF files
	// of those projects' repositories), e.g. "hpcc/WebSearch_distribution.txt".
	File string
	// Builtin is the path of the copy built into ccreplay under
	// builtin/, e.g. "etg/websearch.txt"; "" when the family is not
	// built in (see NotBuiltin).
	Builtin string
	// Convention is how the family's source samples it.
	Convention Convention
	// Source says where the distribution comes from.
	Source string
	// NotBuiltin says why a family is not built in ("" when it is).
	NotBuiltin string
}

// families are the named distributions, the six the workload issue names
// first. Each takes its source's own convention. A built-in copy may come
// from a different (redistributable) source than File when both hold the
// same points: websearch (the HPCC file in percent, the built-in one in
// fractions) and googlerpc (the HPCC file rounded to 6 digits, the
// built-in one Homa's W3 at full precision, both starting at (0, 0)).
var families = []Family{
	{"websearch", "hpcc/WebSearch_distribution.txt", "etg/websearch.txt", Linear,
		"web search (DCTCP, Alizadeh et al. 2010): the DCTCP authors' point list (empirical-traffic-gen, Apache-2.0), the points HPCC's traffic_gen ships", ""},
	{"fb_hadoop", "hpcc/FbHdp_distribution.txt", "", Linear,
		"Facebook Hadoop (Roy et al. 2015) as the HPCC simulator ships it",
		"its only source, the HPCC simulator's traffic_gen/FbHdp_distribution.txt, carries no licence, and the paper (Roy et al., SIGCOMM 2015) gives the distribution only as a figure; built-in Facebook Hadoop alternatives: fb_hadoop_opera (inter-rack), hadoop_all"},
	copied("cachefollower", "homa/Facebook_CacheFollowerDist_IntraCluster.txt",
		"Facebook cache follower, intra-cluster (Roy et al. 2015): Homa's digitization (W7, RAMCloud, ISC)"),
	copied("datamining", "opera/datamining.csv",
		"data mining (VL2, Greenberg et al. 2009) from Opera (BSD-3-Clause)"),
	{"alistorage", "hpcc/AliStorage2019.txt", "", Linear,
		"Alibaba storage 2019 as the HPCC simulator ships it",
		"its only source, the HPCC simulator's traffic_gen/AliStorage2019.txt, carries no licence and no paper publishes the distribution"},
	{"googlerpc", "hpcc/GoogleRPC2008.txt", "homa/GoogleRPC2008.txt", Linear,
		"Google RPC sizes (Homa's W3, RAMCloud, ISC) from size 0 and read linearly, as the HPCC simulator reads its copy GoogleRPC2008.txt", ""},
	copied("websearch_opera", "opera/websearch.csv",
		"web search (pFabric's version) from Opera (BSD-3-Clause)"),
	copied("fb_hadoop_opera", "opera/FB_Hadoop_Inter_Rack_FlowCDF.csv",
		"Facebook Hadoop inter-rack (Roy et al. 2015) from Opera (BSD-3-Clause)"),
	copied("webserver", "homa/Facebook_WebServerDist_IntraCluster.txt",
		"Facebook web server, intra-cluster (Roy et al. 2015): Homa's digitization (W8, RAMCloud, ISC)"),
	copied("hadoop_all", "homa/Facebook_HadoopDist_All.txt",
		"Facebook Hadoop, all traffic (Roy et al. 2015): Homa's W4 (RAMCloud, ISC)"),
	copied("google_allrpc", "homa/Google_AllRPC.txt",
		"Google all RPCs: Homa's W3 (RAMCloud, ISC)"),
	copied("google_searchrpc", "homa/Google_SearchRPC.txt",
		"Google search RPCs: Homa's W2 (RAMCloud, ISC)"),
	copied("dctcp", "homa/DCTCP_MsgSizeDist.txt",
		"DCTCP web search in packets: Homa's W5 (RAMCloud, ISC; sizes x packet size)"),
	copied("keyvalue", "homa/FacebookKeyValueMsgSizeDist.txt",
		"Facebook key-value (Atikoglu et al. 2012): Homa's W1 table to 15 B (RAMCloud, ISC), generalized Pareto above"),
}

// copied is a family built into ccreplay as a copy of its source's file,
// under the same path as in a data folder, sampled as steps.
func copied(name, file, source string) Family {
	return Family{Name: name, File: file, Builtin: file, Convention: Step, Source: source}
}

// Families returns the named distributions.
func Families() []Family { return append([]Family(nil), families...) }

// familyNames lists the family names for messages, marking with '*' those
// that are not built in (they need data=DIR).
func familyNames() string {
	names := make([]string, len(families))
	for i, f := range families {
		names[i] = f.Name
		if f.Builtin == "" {
			names[i] += "*"
		}
	}
	return strings.Join(names, ", ")
}

// LookupFamily returns the family called name (case-insensitive).
func LookupFamily(name string) (Family, bool) {
	for _, f := range families {
		if strings.EqualFold(f.Name, strings.TrimSpace(name)) {
			return f, true
		}
	}
	return Family{}, false
}

// FamilyPath returns the path of f's file under dataDir, the folder that
// holds hpcc/, opera/ and homa/; a dataDir holding such a folder as cdf/
// works too.
func FamilyPath(f Family, dataDir string) string {
	p := filepath.Join(dataDir, filepath.FromSlash(f.File))
	if _, err := os.Stat(p); err != nil {
		alt := filepath.Join(dataDir, "cdf", filepath.FromSlash(f.File))
		if _, err := os.Stat(alt); err == nil {
			return alt
		}
	}
	return p
}

// BuiltinFS returns the built-in distributions as a file system: one
// folder per source (etg/, homa/, opera/), each with its LICENSE and
// NOTICE, and README.md.
func BuiltinFS() fs.FS {
	sub, err := fs.Sub(builtinFS, builtinRoot)
	if err != nil {
		panic(err) // the folder is embedded: cannot happen
	}
	return sub
}

// Notices returns the attribution and licence texts of the built-in
// distributions (every NOTICE, then every LICENSE), for a program that
// ships them to show.
func Notices() string {
	var b strings.Builder
	for _, name := range []string{"NOTICE", "LICENSE"} {
		dirs, _ := fs.ReadDir(builtinFS, builtinRoot)
		for _, d := range dirs {
			if !d.IsDir() {
				continue
			}
			p := path.Join(builtinRoot, d.Name(), name)
			data, err := fs.ReadFile(builtinFS, p)
			if err != nil {
				continue
			}
			fmt.Fprintf(&b, "==> %s <==\n%s\n", strings.TrimPrefix(p, builtinRoot+"/"), bytes.TrimRight(data, "\n"))
		}
	}
	return b.String()
}

// LoadBuiltin reads family f's built-in copy with o (o.Convention Auto
// takes f's convention). It fails for a family that is not built in.
func LoadBuiltin(f Family, o Options) (*Dist, error) {
	if f.Builtin == "" {
		return nil, notBuiltinError(f)
	}
	if o.Convention == Auto {
		o.Convention = f.Convention
	}
	name := path.Join(builtinRoot, f.Builtin)
	data, err := builtinFS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("built-in distribution %s: %w", f.Name, err)
	}
	d, err := Read(bytes.NewReader(data), name, o)
	if err != nil {
		return nil, err
	}
	d.Family = f.Name
	return d, nil
}

// notBuiltinError says that f is not built in, why, and how to use it.
func notBuiltinError(f Family) error {
	return fmt.Errorf("distribution %s is not built into ccreplay (%s); to use it, give data=DIR, a folder holding your own copy as DIR/%s (from the HPCC, Opera or Homa repository), or data=FILE, the file itself",
		f.Name, f.NotBuiltin, f.File)
}

// Resolve loads dist, a family name or a CDF file path. A family is read
// with its own convention unless o.Convention says otherwise: from the
// copy built into ccreplay when dataDir is "", else from the user's files:
// dataDir may be a folder (see FamilyPath) or the family's file itself. A
// path is read as Read describes (dataDir does not apply).
func Resolve(dist, dataDir string, o Options) (*Dist, error) {
	if f, ok := LookupFamily(dist); ok {
		if dataDir == "" {
			d, err := LoadBuiltin(f, o)
			if err != nil && f.Builtin != "" {
				err = fmt.Errorf("distribution %s: %w", f.Name, err)
			}
			return d, err
		}
		if o.Convention == Auto {
			o.Convention = f.Convention
		}
		p := dataDir
		if st, err := os.Stat(dataDir); err != nil || st.IsDir() {
			p = FamilyPath(f, dataDir)
		}
		d, err := LoadOptions(p, o)
		if err != nil {
			return nil, fmt.Errorf("distribution %s: %w", f.Name, err)
		}
		d.Family = f.Name
		return d, nil
	}
	d, err := LoadOptions(dist, o)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("distribution %q is neither a family (%s; * needs data=DIR) nor an existing file", dist, familyNames())
	}
	return d, err
}
