package cdf

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every built-in family loads with its own convention, without any file
// outside the binary.
func TestBuiltinFamiliesLoad(t *testing.T) {
	t.Chdir(t.TempDir()) // nothing may depend on the working directory
	n := 0
	for _, f := range Families() {
		if f.Builtin == "" {
			if f.NotBuiltin == "" {
				t.Errorf("%s: neither built in nor saying why not", f.Name)
			}
			continue
		}
		n++
		d, err := Resolve(f.Name, "", Options{})
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if d.Convention != f.Convention || d.Family != f.Name || !(d.Mean() > 0) {
			t.Errorf("%s: %v, family %q, want convention %v", f.Name, d, d.Family, f.Convention)
		}
	}
	if n < 10 {
		t.Errorf("only %d families are built in", n)
	}
}

// A family that is not built in says so, why, and how to supply it.
func TestNotBuiltinError(t *testing.T) {
	for _, name := range []string{"fb_hadoop", "alistorage"} {
		_, err := Resolve(name, "", Options{})
		if err == nil {
			t.Fatalf("%s resolved without data", name)
		}
		for _, want := range []string{"distribution " + name + " is not built into ccreplay", "carries no licence", "data=DIR", "data=FILE", "hpcc/"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not say %q", name, err, want)
			}
		}
	}
	if !strings.Contains(familyNames(), "fb_hadoop*") || strings.Contains(familyNames(), "websearch*") {
		t.Errorf("family list does not mark the families that need data=DIR: %s", familyNames())
	}
}

// meanLine is a header line stating a mean: "# Mean (linear): 1711250.0 B".
var meanLine = regexp.MustCompile(`^# Mean \((step|linear)\): ([0-9.]+) B`)

// Each built-in file's header names its source, workload, units and
// convention, and the means it states are the ones this package computes
// (to the 0.1 B they are printed with).
func TestBuiltinHeaders(t *testing.T) {
	byFile := map[string][]Family{}
	for _, f := range families {
		if f.Builtin != "" {
			byFile[f.Builtin] = append(byFile[f.Builtin], f)
		}
	}
	for file, fams := range byFile {
		data, err := fs.ReadFile(BuiltinFS(), file)
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{"# Source: ", "# Workload: ", "# Units: ", "# Convention: ", "# Changes: "} {
			if !bytes.Contains(data, []byte("\n"+field)) && !bytes.HasPrefix(data, []byte(field)) {
				t.Errorf("%s: header has no %q line", file, strings.TrimSpace(field))
			}
		}
		stated := map[Convention]float64{}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if m := meanLine.FindStringSubmatch(sc.Text()); m != nil {
				c, _ := ParseConvention(m[1])
				stated[c], _ = strconv.ParseFloat(m[2], 64)
			}
		}
		if _, ok := stated[fams[0].Convention]; !ok {
			t.Errorf("%s: header states no mean under its family's convention %v", file, fams[0].Convention)
		}
		for conv, want := range stated {
			d, err := LoadBuiltin(fams[0], Options{Convention: conv})
			if err != nil {
				t.Fatalf("%s %v: %v", file, conv, err)
			}
			if math.Abs(d.Mean()-want) > 0.05+1e-12*want {
				t.Errorf("%s: header states a %v mean of %.1f B, computed %.3f B", file, conv, want, d.Mean())
			}
		}
	}
}

// Every built-in file belongs to a family, and every source folder
// carries the LICENSE and NOTICE its licence asks for.
func TestBuiltinFilesAndLicences(t *testing.T) {
	used := map[string]bool{}
	for _, f := range families {
		used[f.Builtin] = true
	}
	holders := map[string]string{ // folder: the copyright holder its NOTICE must name
		"etg":   "Mohammad Alizadeh",
		"homa":  "Stanford University",
		"opera": "Regents of the University of California",
	}
	dirs, err := fs.ReadDir(BuiltinFS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		seen++
		holder, ok := holders[d.Name()]
		if !ok {
			t.Errorf("builtin/%s: no copyright holder recorded in this test", d.Name())
		}
		for _, name := range []string{"LICENSE", "NOTICE"} {
			b, err := fs.ReadFile(BuiltinFS(), path.Join(d.Name(), name))
			if err != nil || len(b) < 100 {
				t.Errorf("builtin/%s/%s: %v (%d bytes)", d.Name(), name, err, len(b))
			}
		}
		notice, _ := fs.ReadFile(BuiltinFS(), path.Join(d.Name(), "NOTICE"))
		if !bytes.Contains(notice, []byte(holder)) || !bytes.Contains(notice, []byte("github.com/")) {
			t.Errorf("builtin/%s/NOTICE does not name the source repository and %s", d.Name(), holder)
		}
		files, _ := fs.ReadDir(BuiltinFS(), d.Name())
		for _, f := range files {
			p := path.Join(d.Name(), f.Name())
			if f.Name() != "LICENSE" && f.Name() != "NOTICE" && !used[p] {
				t.Errorf("builtin/%s belongs to no family", p)
			}
		}
	}
	if seen != len(holders) {
		t.Errorf("%d source folders, want %d", seen, len(holders))
	}
	n := Notices()
	for _, h := range holders {
		if !strings.Contains(n, h) {
			t.Errorf("Notices() does not name %s", h)
		}
	}
	if !strings.Contains(n, "Apache License") || !strings.Contains(n, "ISC License") || !strings.Contains(n, "Redistribution and use in source and binary forms") {
		t.Error("Notices() lacks a licence text")
	}
}

// Sampling agrees with Mean for every built-in family, as for the shared
// files (see TestSampleMeanSharedData).
func TestBuiltinSampleMean(t *testing.T) {
	rng := newRand(8)
	for _, f := range families {
		if f.Builtin == "" {
			continue
		}
		d, err := LoadBuiltin(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkSampleMean(t, d, rng)
	}
}
