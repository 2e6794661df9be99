package runconfig

import (
	"fmt"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// parseField parses the file's value v of key with parse into dst; an
// empty v (the key not given) leaves dst as it is.
func parseField[T any](path, key, v string, dst *T, parse func(string) (T, error)) error {
	if v == "" {
		return nil
	}
	x, err := parse(v)
	if err != nil {
		return inputErrorf("%s: %s: %v", path, key, err)
	}
	*dst = x
	return nil
}

func parseSizeField(path, key, v string, dst *units.Bytes) error {
	return parseField(path, key, v, dst, units.ParseSize)
}

func parseTimeField(path, key, v string, dst *units.Time) error {
	return parseField(path, key, v, dst, units.ParseDuration)
}

// sizeField is a size key of the file, its value and where it goes.
type sizeField struct {
	key, v string
	dst    *units.Bytes
}

// parseSizeFields parses fs in order (parseSizeField) and stops at the
// first error.
func parseSizeFields(path string, fs ...sizeField) error {
	for _, f := range fs {
		if err := parseSizeField(path, f.key, f.v, f.dst); err != nil {
			return err
		}
	}
	return nil
}

// ApplySwitch overrides sw with the file's switch section.
func (fc *File) ApplySwitch(path string, sw *switchmodel.Config) error {
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
		if err := parseSizeFields(path, sizeField{"switch.ecn.kmin", e.Kmin, &sw.ECN.KminBytes},
			sizeField{"switch.ecn.kmax", e.Kmax, &sw.ECN.KmaxBytes}); err != nil {
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
			if err := parseSizeFields(path, sizeField{key + ".kmin", pr.Kmin, &ent.KminBytes},
				sizeField{key + ".kmax", pr.Kmax, &ent.KmaxBytes}); err != nil {
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
		if err := parseSizeFields(path,
			sizeField{"switch.pfc.xoff_per_gbps", p.XoffPerGbps, &sw.PFC.XoffPerGbps},
			sizeField{"switch.pfc.xon_per_gbps", p.XonPerGbps, &sw.PFC.XonPerGbps},
			sizeField{"switch.pfc.reserve", p.Reserve, &sw.PFC.ReserveBytes},
			sizeField{"switch.pfc.headroom", p.Headroom, &sw.PFC.HeadroomBytes},
			sizeField{"switch.pfc.resume_offset", p.ResumeOffset, &sw.PFC.ResumeOffsetBytes}); err != nil {
			return err
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

// LocalRate is the file's nic.local_rate (0 when absent or "0").
func (fc *File) LocalRate(path string) (units.BitsPerSec, error) {
	if fc.NIC == nil || fc.NIC.LocalRate == "" || fc.NIC.LocalRate == "0" {
		return 0, nil
	}
	r, err := units.ParseRate(fc.NIC.LocalRate)
	if err != nil {
		return 0, inputErrorf("%s: nic.local_rate: %v", path, err)
	}
	return r, nil
}

// ApplyNIC overrides n with the file's nic section.
func (fc *File) ApplyNIC(path string, n *nic.Config) error {
	s := fc.NIC
	if s == nil {
		return nil
	}
	if err := parseSizeFields(path, sizeField{"nic.mtu_payload", s.MTUPayload, &n.MTUPayload},
		sizeField{"nic.header", s.Header, &n.HeaderBytes}); err != nil {
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
