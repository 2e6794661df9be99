package cdf

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
)

// DefaultPacketBytes is the bytes per packet used for CDF files whose
// sizes are in packets (Homa's DCTCP_* files) when Options.PacketBytes is
// zero: the TCP payload of a 1500 B Ethernet frame.
const DefaultPacketBytes = 1460

// Options tune how a CDF file is read.
type Options struct {
	// Convention overrides the format's own convention; Auto keeps it.
	Convention Convention
	// PacketBytes is the bytes per packet for files whose sizes are in
	// packets (base name starting with "DCTCP_"); 0 means
	// DefaultPacketBytes.
	PacketBytes int64
}

// Load reads the CDF file at path under conv (Auto for the format's own
// convention).
func Load(path string, conv Convention) (*Dist, error) {
	return LoadOptions(path, Options{Convention: conv})
}

// LoadOptions reads the CDF file at path with o.
func LoadOptions(path string, o Options) (*Dist, error) {
	f, err := limits.Open(path, "a CDF file", limits.MaxConfigBytes, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f.Reader, path, o)
}

// point is one parsed line.
type point struct {
	size, cdf float64
	line      int
}

// Read reads a CDF file in any of the three formats (see the package
// comment). name is the file's path: errors are "name:line: message", and
// its base name selects packet units (DCTCP_*) and the key-value tail.
// Blank lines and lines starting with '#' are skipped.
func Read(r io.Reader, name string, o Options) (*Dist, error) {
	if o.PacketBytes < 0 {
		return nil, fmt.Errorf("%s: packet size %d B must not be negative", name, o.PacketBytes)
	}
	fail := func(line int, format string, a ...any) error {
		return &trace.ParseError{File: name, Line: line, Err: fmt.Errorf(format, a...)}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var (
		format     string // "hpcc", "opera", "homa" or "fractions"
		header     float64
		headerLine int
		pts        []point
		line       int
	)
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		comma := strings.Contains(text, ",")
		var fields []string
		if comma {
			fields = strings.Split(text, ",")
			for i := range fields {
				fields[i] = strings.TrimSpace(fields[i])
			}
		} else {
			fields = strings.Fields(text)
		}
		if format == "" {
			switch {
			case len(fields) == 1 && !comma:
				v, err := parseNumber(fields[0])
				if err != nil || v <= 0 {
					return nil, fail(line, "first line %q: want the mean size (homa format) or a size and a CDF value", text)
				}
				format, header, headerLine = "homa", v, line
				continue
			case comma:
				format = "opera"
			default:
				format = "hpcc" // or "fractions": decided once the last value is known
			}
		}
		if (format == "opera") != comma {
			if comma {
				return nil, fail(line, "unexpected ',' in a whitespace-separated file")
			}
			return nil, fail(line, "want size,cdf separated by a comma, as on the first line")
		}
		if len(fields) != 2 {
			return nil, fail(line, "want 2 fields (size cdf), got %d in %q", len(fields), text)
		}
		size, err := parseNumber(fields[0])
		if err != nil {
			return nil, fail(line, "size %q: %v", fields[0], err)
		}
		c, err := parseNumber(fields[1])
		if err != nil {
			return nil, fail(line, "cdf %q: %v", fields[1], err)
		}
		pts = append(pts, point{size, c, line})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fail(line+1, "line longer than 1 MiB")
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(pts) == 0 {
		return nil, &trace.ParseError{File: name, Err: errors.New("no CDF points")}
	}

	d := &Dist{Name: name, Format: format}
	scale := 1.0
	if format == "hpcc" {
		top := 0.0
		for _, p := range pts {
			top = max(top, p.cdf)
		}
		if top > 1+cdfSlack {
			scale = 100
		} else {
			d.Format = "fractions"
		}
	}
	keyValue := format == "homa" && isKeyValue(name)
	if format == "homa" && strings.HasPrefix(filepath.Base(name), "DCTCP_") {
		d.PacketBytes = o.PacketBytes
		if d.PacketBytes == 0 {
			d.PacketBytes = DefaultPacketBytes
		}
	}
	mult := 1.0
	if d.PacketBytes > 0 {
		mult = float64(d.PacketBytes)
	}
	d.HeaderMean = header * mult
	if headerLine > 0 && (math.IsInf(d.HeaderMean, 0) || d.HeaderMean > maxSize) {
		return nil, fail(headerLine, "mean size %v out of range", header)
	}
	rawSizes, rawCDF := make([]float64, len(pts)), make([]float64, len(pts))
	d.sizes, d.cdf = make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		rawSizes[i], rawCDF[i] = p.size, p.cdf
		if err := checkPoint(rawSizes, rawCDF, i, scale); err != nil {
			return nil, fail(p.line, "%v", err)
		}
		d.sizes[i], d.cdf[i] = p.size*mult, min(p.cdf/scale, 1+cdfSlack)
		if d.sizes[i] > maxSize {
			return nil, fail(p.line, "size %v B above the %g B limit", d.sizes[i], float64(maxSize))
		}
	}
	last := pts[len(pts)-1]
	conv := o.Convention
	if conv == Auto {
		conv = Step
		if d.Format == "hpcc" {
			conv = Linear
		}
	}
	if keyValue && d.cdf[len(d.cdf)-1] < 1-cdfSlack {
		d.tail = &gpdTail{from: d.sizes[len(d.sizes)-1], p0: d.cdf[len(d.cdf)-1], sigma: kvSigma, k: kvK}
	}
	if err := d.finish(conv); err != nil {
		if d.tail == nil && math.Abs(d.cdf[len(d.cdf)-1]-1) > cdfSlack {
			if scale == 100 {
				return nil, fail(last.line, "the CDF ends at %v %%, not at 100 %%", last.cdf)
			}
			return nil, fail(last.line, "the CDF ends at %v, not at 1", last.cdf)
		}
		return nil, &trace.ParseError{File: name, Err: err}
	}
	return d, nil
}

// parseNumber parses a finite decimal number.
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("not a finite number")
	}
	return v, nil
}
