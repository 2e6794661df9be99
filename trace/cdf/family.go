package cdf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Family is a named distribution shipped in the shared CDF folder.
type Family struct {
	// Name is what users write, e.g. "websearch".
	Name string
	// File is the path under the CDF data folder, e.g.
	// "hpcc/WebSearch_distribution.txt".
	File string
	// Convention is how the file's source samples it.
	Convention Convention
	// Source says where the distribution comes from.
	Source string
}

// families are the named distributions, the six the workload issue names
// first. Each takes its file's own convention.
var families = []Family{
	{"websearch", "hpcc/WebSearch_distribution.txt", Linear, "web search (DCTCP, Alizadeh et al. 2010) as the HPCC simulator's traffic_gen ships it"},
	{"fb_hadoop", "hpcc/FbHdp_distribution.txt", Linear, "Facebook Hadoop (Roy et al. 2015) as the HPCC simulator ships it"},
	{"cachefollower", "homa/Facebook_CacheFollowerDist_IntraCluster.txt", Step, "Facebook cache follower, intra-cluster (Roy et al. 2015) from HomaSimulation"},
	{"datamining", "opera/datamining.csv", Step, "data mining (VL2, Greenberg et al. 2009) from Opera"},
	{"alistorage", "hpcc/AliStorage2019.txt", Linear, "Alibaba storage 2019 as the HPCC simulator ships it"},
	{"googlerpc", "hpcc/GoogleRPC2008.txt", Linear, "Google RPC 2008 as the HPCC simulator ships it"},
	{"websearch_opera", "opera/websearch.csv", Step, "web search (pFabric's version) from Opera"},
	{"fb_hadoop_opera", "opera/FB_Hadoop_Inter_Rack_FlowCDF.csv", Step, "Facebook Hadoop inter-rack from Opera"},
	{"webserver", "homa/Facebook_WebServerDist_IntraCluster.txt", Step, "Facebook web server, intra-cluster, from HomaSimulation"},
	{"hadoop_all", "homa/Facebook_HadoopDist_All.txt", Step, "Facebook Hadoop, all traffic, from HomaSimulation"},
	{"google_allrpc", "homa/Google_AllRPC.txt", Step, "Google all RPCs from HomaSimulation"},
	{"google_searchrpc", "homa/Google_SearchRPC.txt", Step, "Google search RPCs from HomaSimulation"},
	{"dctcp", "homa/DCTCP_MsgSizeDist.txt", Step, "DCTCP web search in packets, from HomaSimulation (sizes x packet size)"},
	{"keyvalue", "homa/FacebookKeyValueMsgSizeDist.txt", Step, "Facebook key-value (Atikoglu et al. 2012): table to 15 B, generalized Pareto above, from HomaSimulation"},
}

// Families returns the named distributions.
func Families() []Family { return append([]Family(nil), families...) }

// familyNames lists the family names for messages.
func familyNames() string {
	names := make([]string, len(families))
	for i, f := range families {
		names[i] = f.Name
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
// holds hpcc/, opera/ and homa/ (../shared/data/cdf beside the checkout);
// a dataDir holding a cdf/ folder (../shared/data) works too.
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

// Resolve loads dist, a family name or a CDF file path. A family is read
// from under dataDir (see FamilyPath) with its own convention unless
// o.Convention says otherwise; a path is read as Read describes.
func Resolve(dist, dataDir string, o Options) (*Dist, error) {
	if f, ok := LookupFamily(dist); ok {
		if o.Convention == Auto {
			o.Convention = f.Convention
		}
		d, err := LoadOptions(FamilyPath(f, dataDir), o)
		if err != nil {
			return nil, fmt.Errorf("distribution %s: %w", f.Name, err)
		}
		d.Family = f.Name
		return d, nil
	}
	d, err := LoadOptions(dist, o)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("distribution %q is neither a family (%s) nor an existing file", dist, familyNames())
	}
	return d, err
}
