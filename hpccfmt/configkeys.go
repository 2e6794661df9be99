package hpccfmt

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// setter parses one key's values into c.
type setter func(c *Config, key string, v []string) error

// setters are the keys ccreplay interprets.
var setters = map[string]setter{
	"CC_MODE": func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxUint32))
		if err != nil {
			return err
		}
		switch name, ok := ccModes[n]; {
		case ok:
			c.CCMode, c.Algorithm = n, name
			return nil
		case n == 10:
			return errors.New("10 is HPCC-PINT, which ccreplay does not support (use 3, HPCC with full INT)")
		}
		return fmt.Errorf("unknown mode %d (the simulator knows 1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP, 10 HPCC-PINT)", n)
	},
	"RATE_AI":       rateKey(func(c *Config) *units.BitsPerSec { return &c.RateAI }),
	"RATE_HAI":      rateKey(func(c *Config) *units.BitsPerSec { return &c.RateHAI }),
	"MIN_RATE":      rateKey(func(c *Config) *units.BitsPerSec { return &c.MinRate }),
	"DCTCP_RATE_AI": rateKey(func(c *Config) *units.BitsPerSec { return &c.DCTCPRateAI }),
	"EWMA_GAIN": func(c *Config, _ string, v []string) (err error) {
		c.EWMAGain, err = one(v, parseFloat(0, 1))
		return err
	},
	"U_TARGET": func(c *Config, _ string, v []string) (err error) {
		c.UTarget, err = one(v, parseFloat(0, 1))
		return err
	},
	"ERROR_RATE_PER_LINK": func(c *Config, _ string, v []string) (err error) {
		c.ErrorRatePerLink, err = one(v, parseFloat(0, 1))
		return err
	},
	"RP_TIMER":               microsKey(func(c *Config) *units.Time { return &c.RPTimer }),
	"ALPHA_RESUME_INTERVAL":  microsKey(func(c *Config) *units.Time { return &c.AlphaResumeInterval }),
	"RATE_DECREASE_INTERVAL": microsKey(func(c *Config) *units.Time { return &c.RateDecreaseInterval }),
	"SIMULATOR_STOP_TIME": func(c *Config, _ string, v []string) (err error) {
		c.SimulatorStopTime, err = one(v, parseSeconds)
		if err == nil && c.SimulatorStopTime == 0 {
			return errors.New("0 stops the simulator before anything happens; want a time in seconds > 0 (or leave the key out)")
		}
		return err
	},
	"FAST_RECOVERY_TIMES": intKey(func(c *Config) *int { return &c.FastRecoveryTimes }),
	"MI_THRESH":           intKey(func(c *Config) *int { return &c.MIThresh }),
	"INT_MULTI":           intKey(func(c *Config) *int { return &c.IntMulti }),
	"CLAMP_TARGET_RATE":   boolKey(func(c *Config) *bool { return &c.ClampTargetRate }),
	"FAST_REACT":          boolKey(func(c *Config) *bool { return &c.FastReact }),
	"HAS_WIN":             boolKey(func(c *Config) *bool { return &c.HasWin }),
	"VAR_WIN":             boolKey(func(c *Config) *bool { return &c.VarWin }),
	"ENABLE_QCN":          boolKey(func(c *Config) *bool { return &c.EnableQCN }),
	"ACK_HIGH_PRIO":       boolKey(func(c *Config) *bool { return &c.ACKHighPrio }),
	"USE_DYNAMIC_PFC_THRESHOLD": boolKey(func(c *Config) *bool {
		return &c.UseDynamicPFCThreshold
	}),
	"GLOBAL_T": func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxUint32))
		c.GlobalT = n == 1 // NB: third.cc tests global_t == 1, not != 0
		return err
	},
	"BUFFER_SIZE": func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxUint32/(1<<20)))
		c.BufferSize = units.Bytes(n) << 20
		return err
	},
	"PACKET_PAYLOAD_SIZE": func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(1, math.MaxUint32))
		c.PacketPayloadSize = units.Bytes(n)
		return err
	},
	"L2_ACK_INTERVAL": func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxUint32))
		c.L2AckInterval = units.Bytes(n)
		return err
	},
	"TOPOLOGY_FILE":   pathKey(func(c *Config) *string { return &c.TopologyFile }),
	"FLOW_FILE":       pathKey(func(c *Config) *string { return &c.FlowFile }),
	"FCT_OUTPUT_FILE": pathKey(func(c *Config) *string { return &c.FCTOutputFile }),
	"KMIN_MAP":        ecnMap(func(e *ECNEntry, v string) error { return kbytes(v, &e.Kmin) }),
	"KMAX_MAP":        ecnMap(func(e *ECNEntry, v string) error { return kbytes(v, &e.Kmax) }),
	"PMAX_MAP": ecnMap(func(e *ECNEntry, v string) error {
		p, err := parseFloat(0, 1)(v)
		e.Pmax = p
		return err
	}),
}

// one parses the single value of a key.
func one[T any](v []string, parse func(string) (T, error)) (T, error) {
	var zero T
	switch len(v) {
	case 0:
		return zero, errors.New("missing value")
	case 1:
		return parse(v[0])
	}
	return zero, fmt.Errorf("want one value, got %d (%q)", len(v), strings.Join(v, " "))
}

func parseInt(lo, hi int) func(string) (int, error) {
	return parseIn(strconv.Atoi, lo, hi, fmt.Sprintf("an integer in %d..%d", lo, hi))
}

func parseFloat(lo, hi float64) func(string) (float64, error) {
	return parseIn(units.ParseFloat, lo, hi, fmt.Sprintf("a number in [%g, %g]", lo, hi))
}

// parseIn returns a parser of values conv reads and that lie in [lo, hi];
// its error quotes the text and says it wants what.
func parseIn[T int | float64](conv func(string) (T, error), lo, hi T, what string) func(string) (T, error) {
	return func(s string) (T, error) {
		v, err := conv(s)
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("%q: want %s", s, what)
		}
		return v, nil
	}
}

func rateKey(field func(*Config) *units.BitsPerSec) setter {
	return func(c *Config, _ string, v []string) (err error) {
		*field(c), err = one(v, parseDataRate)
		return err
	}
}

func intKey(field func(*Config) *int) setter {
	return func(c *Config, _ string, v []string) (err error) {
		*field(c), err = one(v, parseInt(0, math.MaxUint32))
		return err
	}
}

// boolKey reads an integer flag as the simulator does: non-zero is true.
func boolKey(field func(*Config) *bool) setter {
	return func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxUint32))
		*field(c) = n != 0
		return err
	}
}

// microsKey reads a time in microseconds (a double in the simulator).
func microsKey(field func(*Config) *units.Time) setter {
	return func(c *Config, _ string, v []string) error {
		us, err := one(v, parseFloat(0, 9e12))
		*field(c) = units.Time(math.Round(us * 1e6))
		return err
	}
}

func pathKey(field func(*Config) *string) setter {
	return func(c *Config, _ string, v []string) error {
		p, err := one(v, func(s string) (string, error) { return s, nil })
		*field(c) = ResolvePath(c.Name, p)
		return err
	}
}

// kbytes reads a threshold in KB (10^3 bytes, uint32 in the simulator).
func kbytes(s string, dst *units.Bytes) error {
	n, err := parseInt(0, math.MaxUint32)(s)
	*dst = units.Bytes(n) * 1000
	return err
}

// ecnMap reads "n rate value rate value ..." into the ECN entries; an
// entry's fields not yet given by any map are -1.
func ecnMap(set func(*ECNEntry, string) error) setter {
	return func(c *Config, key string, v []string) error {
		if len(v) == 0 {
			return errors.New("missing count")
		}
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 0 || 1+2*n != len(v) {
			return fmt.Errorf("want a count n then n rate/value pairs, got %q", strings.Join(v, " "))
		}
		seen := map[units.BitsPerSec]bool{}
		for i := range n {
			rs, val := v[1+2*i], v[2+2*i]
			r, err := strconv.ParseInt(rs, 10, 64)
			if err != nil || r < 1 {
				return fmt.Errorf("rate %q: want bits per second as a positive integer", rs)
			}
			rate := units.BitsPerSec(r)
			if seen[rate] {
				return fmt.Errorf("rate %d listed twice", r)
			}
			seen[rate] = true
			e, ok := c.ecn[rate]
			if !ok {
				e = &ECNEntry{Rate: rate, Kmin: -1, Kmax: -1, Pmax: -1}
				c.ecn[rate] = e
			}
			if err := set(e, val); err != nil {
				return fmt.Errorf("rate %d: %w", r, err)
			}
		}
		return nil
	}
}

// parseDataRate parses an ns-3 DataRate string: a number and a unit of
// bits ("b/s", "bps") or bytes ("B/s", "Bps") per second with an optional
// k, K, M or G prefix (decimal), e.g. "50Mb/s", "100Gbps", "1.25GBps".
// A bare number is bits per second.
func parseDataRate(s string) (units.BitsPerSec, error) {
	mult := 1.0
	num := s
	for _, u := range []struct {
		suf  string
		mult float64
	}{{"bps", 1}, {"b/s", 1}, {"Bps", 8}, {"B/s", 8}} {
		if t, ok := strings.CutSuffix(s, u.suf); ok {
			num, mult = t, u.mult
			break
		}
	}
	if num != s && num != "" {
		switch num[len(num)-1] {
		case 'k', 'K':
			num, mult = num[:len(num)-1], mult*1e3
		case 'M':
			num, mult = num[:len(num)-1], mult*1e6
		case 'G':
			num, mult = num[:len(num)-1], mult*1e9
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	r := math.Round(v * mult)
	if err != nil || math.IsNaN(r) || r < 0 || r > 1e15 {
		return 0, fmt.Errorf("%q: want an ns-3 data rate such as 50Mb/s or 100Gbps", s)
	}
	return units.BitsPerSec(r), nil
}
