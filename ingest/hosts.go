package ingest

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
)

// Hosts: each IP address that sends or receives a message becomes a
// simulated host. Without a hosts file, hosts are numbered 0, 1, ... in
// the order their addresses first appear in the capture (source before
// destination within a packet). A hosts file gives the mapping instead.

// see records the first appearance of an address.
func (in *ingester) see(a netip.Addr) {
	if _, ok := in.addrSeen[a]; !ok {
		in.addrSeen[a] = int64(len(in.addrSeen))
	}
}

// hostFile is a parsed hosts file: address -> host.
type hostFile struct {
	path  string
	hosts map[netip.Addr]int32
}

// readHostFile reads a hosts file: one "address host" pair per line,
// whitespace separated, host an integer >= 0; blank lines and text after
// # are ignored. Several addresses may name one host (say a host's IPv4
// and IPv6 addresses); an address may appear only once.
func readHostFile(path string) (*hostFile, error) {
	f, err := limits.Open(path, "a hosts file", limits.MaxTableBytes, false)
	if err != nil {
		return nil, fmt.Errorf("hosts file: %w", err)
	}
	defer f.Close()
	hf := &hostFile{path: path, hosts: map[netip.Addr]int32{}}
	lineOf := map[netip.Addr]int{}
	sc := bufio.NewScanner(f.Reader)
	sc.Buffer(make([]byte, 0, 64*1024), limits.MaxTableLineBytes)
	n := 1
	for ; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"address host\", got %s", path, n, limits.Quote(strings.TrimSpace(line)))
		}
		a, err := netip.ParseAddr(fields[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s is not an IP address", path, n, limits.Quote(fields[0]))
		}
		a = a.Unmap().WithZone("")
		h, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil || h < 0 || h > math.MaxInt32 {
			return nil, fmt.Errorf("%s:%d: host %s must be an integer in 0..%d", path, n, limits.Quote(fields[1]), math.MaxInt32)
		}
		if prev, dup := lineOf[a]; dup {
			return nil, fmt.Errorf("%s:%d: address %v is already mapped on line %d", path, n, a, prev)
		}
		lineOf[a] = n
		hf.hosts[a] = int32(h)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line longer than %s, the longest line of a hosts file (docs/LIMITS.md)", path, n, limits.SizeString(limits.MaxTableLineBytes))
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return hf, nil
}

// hostMap maps the addresses that messages use to hosts and checks that
// they fit opt.Hosts. It returns the mapping and the trace's host count.
func (in *ingester) hostMap(msgs []message, hf *hostFile) (map[netip.Addr]int32, int, error) {
	used := map[netip.Addr]bool{}
	for i := range msgs {
		used[msgs[i].src], used[msgs[i].dst] = true, true
	}
	addrs := make([]netip.Addr, 0, len(used))
	for a := range used {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b netip.Addr) int { return cmp.Compare(in.addrSeen[a], in.addrSeen[b]) })

	m := make(map[netip.Addr]int32, len(addrs))
	hosts := 0
	if hf == nil {
		for i, a := range addrs {
			m[a] = int32(i)
		}
		hosts = len(addrs)
	} else {
		var missing []string
		for _, a := range addrs {
			h, ok := hf.hosts[a]
			if !ok {
				missing = append(missing, a.String())
				continue
			}
			m[a] = h
			hosts = max(hosts, int(h)+1)
		}
		if len(missing) > 0 {
			return nil, 0, fmt.Errorf("hosts file %s does not map %s, which the capture's messages use", hf.path, listSome(missing))
		}
	}
	if in.opt.Hosts > 0 && hosts > in.opt.Hosts {
		if hf == nil {
			strs := make([]string, len(addrs))
			for i, a := range addrs {
				strs[i] = a.String()
			}
			return nil, 0, fmt.Errorf("the capture's messages use %d hosts (%s) but only %d fit: use a larger topology or a hosts file (--hosts) that maps several addresses to one host",
				hosts, listSome(strs), in.opt.Hosts)
		}
		return nil, 0, fmt.Errorf("hosts file %s uses host indices up to %d but only %d hosts (0..%d) fit", hf.path, hosts-1, in.opt.Hosts, in.opt.Hosts-1)
	}
	if in.opt.Hosts > 0 {
		hosts = in.opt.Hosts
	}

	// The report lists every host with its addresses.
	byHost := map[int32][]string{}
	var order []int32
	for _, a := range addrs {
		h := m[a]
		if _, ok := byHost[h]; !ok {
			order = append(order, h)
		}
		byHost[h] = append(byHost[h], a.String())
	}
	slices.Sort(order)
	in.rep.Hosts = make([]HostReport, len(order))
	for i, h := range order {
		in.rep.Hosts[i] = HostReport{Host: h, Addrs: byHost[h]}
	}
	return m, hosts, nil
}

// listSome joins up to 8 items and says how many more there are.
func listSome(items []string) string {
	const show = 8
	if len(items) <= show {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:show], ", ") + fmt.Sprintf(" and %d more", len(items)-show)
}
