package rlcc

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// params are the `--cca-param` keys of rlcc.
var params = keyval.Table[Config]{
	"policy": {
		Set: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if v == "" || v == "default" {
				c.Policy, c.PolicyPath = nil, "default"
				return nil
			}
			p, err := Named(v)
			if err != nil {
				return err
			}
			c.Policy, c.PolicyPath = p, v
			return nil
		},
		Get: func(c *Config) string {
			if c.PolicyPath == "" {
				return "default"
			}
			return c.PolicyPath
		}},
	"latency": {
		Set: func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "auto") {
				c.Latency = -1
				return nil
			}
			t, err := units.ParseDuration(v)
			if err != nil {
				return err
			}
			if t < 0 {
				return fmt.Errorf("must not be negative, got %q", v)
			}
			c.Latency = t
			return nil
		},
		Get: func(c *Config) string { return keyval.FormatDuration(c.Latency) }},
	"amin": {
		Set: func(c *Config, v string) error { return parseMultiplier(v, &c.AMin) },
		Get: func(c *Config) string { a, _ := c.Range(); return keyval.FormatFloat(a) }},
	"amax": {
		Set: func(c *Config, v string) error { return parseMultiplier(v, &c.AMax) },
		Get: func(c *Config) string { _, a := c.Range(); return keyval.FormatFloat(a) }},
	"min_rate": {
		Set: func(c *Config, v string) error {
			r, err := units.ParseRate(v)
			if err != nil {
				return err
			}
			if r <= 0 {
				return fmt.Errorf("must be positive, got %q", v)
			}
			c.MinRate = r
			return nil
		},
		Get: func(c *Config) string { return keyval.FormatRate(c.MinRate) }},
	"rtt": {
		Set: func(c *Config, v string) error {
			switch strings.TrimSpace(v) {
			case "probe":
				c.AckRTT = false
			case "ack":
				c.AckRTT = true
			default:
				return fmt.Errorf(`want "probe" or "ack", got %q`, v)
			}
			return nil
		},
		Get: func(c *Config) string {
			if c.AckRTT {
				return "ack"
			}
			return "probe"
		}},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return params.Keys() }

// parseMultiplier parses a finite rate multiplier > 0 with keyval's parser
// (NaN and the infinities are rejected).
func parseMultiplier(v string, dst *float64) error {
	f, err := keyval.ParseFloatIn(v, keyval.Positive)
	if err != nil {
		return err
	}
	*dst = f
	return nil
}
