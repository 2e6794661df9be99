package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// fileConfig is run.yaml. Every value with a unit is a string carrying it
// ("32MB", "50us", "25Gbps"); unknown keys are rejected.
type fileConfig struct {
	Trace     string            `yaml:"trace"`
	Workload  string            `yaml:"workload"`
	CCA       string            `yaml:"cca"`
	CCAParams map[string]string `yaml:"cca_params"`
	Topology  string            `yaml:"topology"`
	Seed      *uint64           `yaml:"seed"`
	Packets   string            `yaml:"packets"`
	Out       string            `yaml:"out"`
	MaxTime   string            `yaml:"max_time"` // simulated time limit, e.g. 10ms
	Switch    *switchYAML       `yaml:"switch"`
	NIC       *nicYAML          `yaml:"nic"`
}

type switchYAML struct {
	Buffer string   `yaml:"buffer"` // shared buffer per switch, e.g. 32MB
	ECN    *ecnYAML `yaml:"ecn"`
	PFC    *pfcYAML `yaml:"pfc"`
	INT    *bool    `yaml:"int"`
}

// ecnYAML is switch.ecn.
type ecnYAML struct {
	Enabled *bool    `yaml:"enabled"`
	Kmin    string   `yaml:"kmin"`     // bytes, e.g. 5KB
	Kmax    string   `yaml:"kmax"`     // bytes, e.g. 200KB
	Pmax    *float64 `yaml:"pmax"`     // probability at kmax, 0..1
	RefRate string   `yaml:"ref_rate"` // link rate kmin/kmax are given for, e.g. 25Gbps; "0" = no scaling
	// PerRate are explicit settings per port rate (HPCC KMIN_MAP/KMAX_MAP/PMAX_MAP).
	PerRate []ecnRateYAML `yaml:"per_rate"`
}

// ecnRateYAML is one entry of switch.ecn.per_rate.
type ecnRateYAML struct {
	Rate string  `yaml:"rate"` // port rate, e.g. 100Gbps
	Kmin string  `yaml:"kmin"` // bytes
	Kmax string  `yaml:"kmax"` // bytes
	Pmax float64 `yaml:"pmax"` // 0..1
}

// pfcYAML is switch.pfc.
type pfcYAML struct {
	Enabled      *bool  `yaml:"enabled"`
	Mode         string `yaml:"mode"`          // static | dynamic
	XoffPerGbps  string `yaml:"xoff_per_gbps"` // bytes per port per Gb/s (static)
	XonPerGbps   string `yaml:"xon_per_gbps"`  // bytes per port per Gb/s (static)
	Reserve      string `yaml:"reserve"`       // private ingress buffer per port, bytes
	Headroom     string `yaml:"headroom"`      // per port, bytes; 0 = sized from the link
	Divisor      *int64 `yaml:"divisor"`       // dynamic threshold denominator
	ResumeOffset string `yaml:"resume_offset"` // bytes below the dynamic threshold to resume
}

type nicYAML struct {
	MTUPayload  string `yaml:"mtu_payload"`  // bytes of payload per full packet
	Header      string `yaml:"header"`       // header bytes per packet
	AckEvery    *int   `yaml:"ack_every"`    // packets per ACK
	CNPInterval string `yaml:"cnp_interval"` // min gap between CNPs per QP, e.g. 50us
	RTO         string `yaml:"rto"`          // retransmission timeout, e.g. 4ms
	Window      string `yaml:"window"`       // bytes in flight per QP, or "bdp"
	DataPrio    *int   `yaml:"data_prio"`    // priority class of data, 1..7
	LocalRate   string `yaml:"local_rate"`   // same-host (shared-memory) copy rate, e.g. 200Gbps; "0" = instant
}

var (
	yamlLine   = regexp.MustCompile(`line (\d+): (.*)`)
	unknownKey = regexp.MustCompile(`field (\S+) not found in type main\.(\w+)`)
)

// yamlSection names a config struct type by its place in run.yaml.
func yamlSection(typ string) string {
	switch typ {
	case "switchYAML":
		return "section switch"
	case "ecnYAML":
		return "section switch.ecn"
	case "ecnRateYAML":
		return "an entry of switch.ecn.per_rate"
	case "pfcYAML":
		return "section switch.pfc"
	case "nicYAML":
		return "section nic"
	default:
		return "the top level"
	}
}

// loadConfig reads a YAML run configuration, rejecting unknown keys.
func loadConfig(path string) (*fileConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, inputErrorf("config: %v", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var fc fileConfig
	if err := dec.Decode(&fc); err != nil {
		if err.Error() == "EOF" {
			return &fc, nil
		}
		msg := strings.TrimSpace(err.Error())
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			detail := strings.SplitN(m[2], "\n", 2)[0]
			if k := unknownKey.FindStringSubmatch(detail); k != nil {
				detail = fmt.Sprintf("unknown key %q in %s", k[1], yamlSection(k[2]))
			}
			return nil, inputErrorf("%s:%s: %s", path, m[1], detail)
		}
		return nil, inputErrorf("%s: %s", path, strings.ReplaceAll(msg, "\n", "; "))
	}
	return &fc, nil
}

func parseSizeField(path, key, v string, dst *units.Bytes) error {
	if v == "" {
		return nil
	}
	b, err := units.ParseSize(v)
	if err != nil {
		return inputErrorf("%s: %s: %v", path, key, err)
	}
	*dst = b
	return nil
}

func parseTimeField(path, key, v string, dst *units.Time) error {
	if v == "" {
		return nil
	}
	t, err := units.ParseDuration(v)
	if err != nil {
		return inputErrorf("%s: %s: %v", path, key, err)
	}
	*dst = t
	return nil
}

// applySwitch overrides sw with the file's switch section.
func (fc *fileConfig) applySwitch(path string, sw *switchmodel.Config) error {
	s := fc.Switch
	if s == nil {
		return nil
	}
	if err := parseSizeField(path, "switch.buffer", s.Buffer, &sw.BufferBytes); err != nil {
		return err
	}
	if s.INT != nil {
		sw.INT = *s.INT
	}
	if e := s.ECN; e != nil {
		if e.Enabled != nil {
			sw.ECN.Enabled = *e.Enabled
		}
		if err := parseSizeField(path, "switch.ecn.kmin", e.Kmin, &sw.ECN.KminBytes); err != nil {
			return err
		}
		if err := parseSizeField(path, "switch.ecn.kmax", e.Kmax, &sw.ECN.KmaxBytes); err != nil {
			return err
		}
		if e.Pmax != nil {
			if err := checkProbability(path, "switch.ecn.pmax", *e.Pmax); err != nil {
				return err
			}
			sw.ECN.Pmax = *e.Pmax
		}
		if e.RefRate == "0" {
			sw.ECN.RefRate = 0
		} else if e.RefRate != "" {
			r, err := units.ParseRate(e.RefRate)
			if err != nil {
				return inputErrorf("%s: switch.ecn.ref_rate: %v", path, err)
			}
			sw.ECN.RefRate = r
		}
		if e.PerRate != nil {
			sw.ECN.PerRate = nil
		}
		for i, pr := range e.PerRate {
			key := fmt.Sprintf("switch.ecn.per_rate[%d]", i)
			r, err := units.ParseRate(pr.Rate)
			if err != nil {
				return inputErrorf("%s: %s.rate: %v", path, key, err)
			}
			if err := checkProbability(path, key+".pmax", pr.Pmax); err != nil {
				return err
			}
			ent := switchmodel.ECNRate{Rate: r, Pmax: pr.Pmax}
			if err := parseSizeField(path, key+".kmin", pr.Kmin, &ent.KminBytes); err != nil {
				return err
			}
			if err := parseSizeField(path, key+".kmax", pr.Kmax, &ent.KmaxBytes); err != nil {
				return err
			}
			sw.ECN.PerRate = append(sw.ECN.PerRate, ent)
		}
	}
	if p := s.PFC; p != nil {
		if p.Enabled != nil {
			sw.PFC.Enabled = *p.Enabled
		}
		if p.Mode != "" {
			sw.PFC.Mode = switchmodel.PFCMode(p.Mode)
		}
		for _, f := range []struct {
			key, v string
			dst    *units.Bytes
		}{
			{"switch.pfc.xoff_per_gbps", p.XoffPerGbps, &sw.PFC.XoffPerGbps},
			{"switch.pfc.xon_per_gbps", p.XonPerGbps, &sw.PFC.XonPerGbps},
			{"switch.pfc.reserve", p.Reserve, &sw.PFC.ReserveBytes},
			{"switch.pfc.headroom", p.Headroom, &sw.PFC.HeadroomBytes},
			{"switch.pfc.resume_offset", p.ResumeOffset, &sw.PFC.ResumeOffsetBytes},
		} {
			if err := parseSizeField(path, f.key, f.v, f.dst); err != nil {
				return err
			}
		}
		if p.Divisor != nil {
			sw.PFC.Divisor = *p.Divisor
		}
	}
	if err := sw.Validate(); err != nil {
		// The switch's errors name their key (switch.ecn.pmax, ...).
		return inputErrorf("%s: %v", path, err)
	}
	return nil
}

// checkProbability rejects a probability that is not a finite number in
// [0, 1], naming the key: "run.yaml: switch.ecn.pmax: NaN is not a number
// in [0,1]". YAML reads .nan and .inf as floats, and a range check in the
// form p < 0 || p > 1 lets NaN through, so the loader checks here.
func checkProbability(path, key string, p float64) error {
	if !(p >= 0 && p <= 1) {
		return inputErrorf("%s: %s: %v is not a number in [0,1]", path, key, p)
	}
	return nil
}

// localRate is the file's nic.local_rate (0 when absent or "0").
func (fc *fileConfig) localRate(path string) (units.BitsPerSec, error) {
	if fc.NIC == nil || fc.NIC.LocalRate == "" || fc.NIC.LocalRate == "0" {
		return 0, nil
	}
	r, err := units.ParseRate(fc.NIC.LocalRate)
	if err != nil {
		return 0, inputErrorf("%s: nic.local_rate: %v", path, err)
	}
	return r, nil
}

// applyNIC overrides n with the file's nic section.
func (fc *fileConfig) applyNIC(path string, n *nic.Config) error {
	s := fc.NIC
	if s == nil {
		return nil
	}
	if err := parseSizeField(path, "nic.mtu_payload", s.MTUPayload, &n.MTUPayload); err != nil {
		return err
	}
	if err := parseSizeField(path, "nic.header", s.Header, &n.HeaderBytes); err != nil {
		return err
	}
	if s.AckEvery != nil {
		n.AckEvery = *s.AckEvery
	}
	if err := parseTimeField(path, "nic.cnp_interval", s.CNPInterval, &n.CNPInterval); err != nil {
		return err
	}
	if err := parseTimeField(path, "nic.rto", s.RTO, &n.RTO); err != nil {
		return err
	}
	if s.Window == "bdp" {
		n.WindowBDP = true
	} else if err := parseSizeField(path, "nic.window", s.Window, &n.Window); err != nil {
		return err
	}
	if s.DataPrio != nil {
		if *s.DataPrio < 1 || *s.DataPrio > 7 {
			return inputErrorf("%s: nic.data_prio must be in 1..7, got %d", path, *s.DataPrio)
		}
		n.DataPrio = uint8(*s.DataPrio)
	}
	if err := n.Validate(); err != nil {
		// The NIC's errors name their key (nic.mtu_payload, ...).
		return inputErrorf("%s: %v", path, err)
	}
	return nil
}
