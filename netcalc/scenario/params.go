package scenario

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/units"
)

// Params is what a model congestion control's `--cca-param key=value`
// parameters set: the model's Config and r_o.
type Params struct {
	// Config is the model's configuration.
	Config netcalc.Config
	// InitRate is r_o in bit/s, the rate every flow starts at; 0 leaves
	// each flow at its sender's link rate.
	InitRate units.BitsPerSec
}

// CCs are the model congestion controls, in help order.
var CCs = []netcalc.CCKind{netcalc.LineRate, netcalc.DCQCN, netcalc.AIMDRate, netcalc.AIMDWindow, netcalc.Vegas}

// ccDocs describe the model congestion controls and where their
// defaults come from.
var ccDocs = map[netcalc.CCKind]string{
	netcalc.LineRate:   "no congestion control: every flow sends at r_o (with --pfc on: the paper's PFC case)",
	netcalc.DCQCN:      "Algorithm 1 with ECN/CNPs, Section V-B and Table II defaults",
	netcalc.AIMDRate:   "Algorithm 1, timeouts only; defaults of Section IV-B (Fig. 6)",
	netcalc.AIMDWindow: "Algorithm 2; defaults proposed here (the paper gives none)",
	netcalc.Vegas:      "Algorithm 3, no timeouts; ns-3 TcpVegas defaults",
}

// ecn is the Config's ECN setting, allocated on first use.
func ecn(c *Params) *netcalc.ECNParams {
	if c.Config.ECN == nil {
		c.Config.ECN = &netcalc.ECNParams{}
	}
	return c.Config.ECN
}

func initRate() *keyval.Param[Params] {
	return keyval.Rate("init_rate", func(c *Params) *units.BitsPerSec { return &c.InitRate }).
		Zero("link").Default("link").Doc("r_o, the sending rate at start (link: the sender's link rate)")
}

func beta(f func(*Params) *float64, def float64) *keyval.Param[Params] {
	return keyval.Real("beta", f, keyval.OpenUnit).Default(units.FormatFloat(def)).Doc("multiplicative decrease β")
}

func timeout(f func(*Params) *units.Time, def units.Time) *keyval.Param[Params] {
	return keyval.Time("timeout", f).Zero("off").Default(units.FormatDuration(def)).Doc("τ_o (off or 0 disables timeouts)")
}

// aimdParams are the parameters of Algorithm 1 (aimd-rate and dcqcn).
func aimdParams(d netcalc.AIMDParams, maxRate string) []*keyval.Param[Params] {
	a := func(c *Params) *netcalc.AIMDParams { return &c.Config.AIMD }
	return []*keyval.Param[Params]{
		initRate(),
		keyval.Rate("alpha", func(c *Params) *units.BitsPerSec { return &a(c).Alpha }).Zero("0bps", "0").
			Default(units.FormatRate(d.Alpha)).Doc("additive increase α per ai_every"),
		beta(func(c *Params) *float64 { return &a(c).Beta }, d.Beta),
		timeout(func(c *Params) *units.Time { return &a(c).Timeout }, d.Timeout),
		keyval.Time("ai_every", func(c *Params) *units.Time { return &a(c).IncreaseEvery }).Positive().
			Default(units.FormatDuration(d.IncreaseEvery)).Doc("Δτ_ai, the time without a cut before an increase"),
		keyval.Rate("max_rate", func(c *Params) *units.BitsPerSec { return &a(c).MaxRate }).Zero(maxRate).
			Default(maxRate).Doc("rate cap (r_o: the initial rate; none: no cap)"),
	}
}

// ecnParams are the RED marking parameters of dcqcn (Table II).
func ecnParams(d netcalc.ECNParams) []*keyval.Param[Params] {
	size := func(key, doc string, f func(*netcalc.ECNParams) *units.Bytes, def units.Bytes) *keyval.Param[Params] {
		return keyval.Size(key, func(c *Params) *units.Bytes { return f(ecn(c)) }).Default(units.FormatSize(def)).Doc(doc)
	}
	return []*keyval.Param[Params]{
		size("kmin", "RED K_min of the bottleneck backlog", func(e *netcalc.ECNParams) *units.Bytes { return &e.KMin }, d.KMin),
		size("kmax", "RED K_max", func(e *netcalc.ECNParams) *units.Bytes { return &e.KMax }, d.KMax),
		keyval.Real("pmax", func(c *Params) *float64 { return &ecn(c).PMax }, keyval.UnitNonZero).
			Default(units.FormatFloat(d.PMax)).Doc("RED P_max"),
		keyval.Time("ecn_gap", func(c *Params) *units.Time { return &ecn(c).Gap }).
			Default(units.FormatDuration(d.Gap)).Doc("Δτ_ecn, least time between two CNPs to one flow"),
		size("imax", "packet size I_max (marks per admitted byte)", func(e *netcalc.ECNParams) *units.Bytes { return &e.IMax }, d.IMax).Positive(),
	}
}

// windowParams are the parameters of Algorithm 2, with this package's
// defaults.
func windowParams() []*keyval.Param[Params] {
	w := func(c *Params) *netcalc.WindowParams { return &c.Config.Window }
	size := func(key, doc string, f func(*netcalc.WindowParams) *units.Bytes, def string) *keyval.Param[Params] {
		return keyval.Size(key, func(c *Params) *units.Bytes { return f(w(c)) }).Default(def).Doc(doc)
	}
	return []*keyval.Param[Params]{
		beta(func(c *Params) *float64 { return &w(c).Beta }, 0.5),
		timeout(func(c *Params) *units.Time { return &w(c).Timeout }, units.Millisecond),
		size("w_alpha", "additive increase α per flight", func(p *netcalc.WindowParams) *units.Bytes { return &p.Alpha }, "1000B"),
		size("w0", "initial window W_o", func(p *netcalc.WindowParams) *units.Bytes { return &p.W0 }, "10KB").Positive(),
		size("threshold", "initial slow-start threshold w_tho", func(p *netcalc.WindowParams) *units.Bytes { return &p.Threshold }, "100KB"),
	}
}

// vegasParams are the parameters of Algorithm 3.
func vegasParams(d netcalc.VegasParams) []*keyval.Param[Params] {
	size := func(key, doc string, f func(*netcalc.VegasParams) *units.Bytes, def units.Bytes) *keyval.Param[Params] {
		return keyval.Size(key, func(c *Params) *units.Bytes { return f(&c.Config.Vegas) }).Positive().Default(units.FormatSize(def)).Doc(doc)
	}
	return []*keyval.Param[Params]{
		size("w0", "initial window W_o", func(v *netcalc.VegasParams) *units.Bytes { return &v.W0 }, d.W0),
		size("low", "w_low (Vegas' α)", func(v *netcalc.VegasParams) *units.Bytes { return &v.Low }, d.Low),
		size("high", "w_high (Vegas' β)", func(v *netcalc.VegasParams) *units.Bytes { return &v.High }, d.High),
		size("gamma", "γ, the slow-start exit threshold", func(v *netcalc.VegasParams) *units.Bytes { return &v.Gamma }, d.Gamma),
		size("imax", "packet size I_max (the additive step)", func(v *netcalc.VegasParams) *units.Bytes { return &v.IMax }, d.IMax),
	}
}

// aimdRateDefaults are Section IV-B's (Fig. 6) parameters of Algorithm 1.
var aimdRateDefaults = netcalc.AIMDParams{Alpha: 100 * units.Mbps, Beta: 0.8, Timeout: 100 * units.Microsecond,
	IncreaseEvery: 30 * units.Microsecond}

// tables are the parameter tables of the model congestion controls. A
// table's values with no override are the defaults: dcqcn's and vegas'
// are the package's (Section V-B and Table II, ns-3 TcpVegas), aimd-rate
// takes Section IV-B's, aimd-window values proposed here.
var tables = map[netcalc.CCKind]*keyval.Table[Params]{
	netcalc.LineRate:   {Name: "netcalc linerate", Params: []*keyval.Param[Params]{initRate()}},
	netcalc.DCQCN:      {Name: "netcalc dcqcn", Params: append(aimdParams(netcalc.DCQCNParams(), "r_o"), ecnParams(netcalc.DCQCNECN())...)},
	netcalc.AIMDRate:   {Name: "netcalc aimd-rate", Params: aimdParams(aimdRateDefaults, "none")},
	netcalc.AIMDWindow: {Name: "netcalc aimd-window", Params: windowParams()},
	netcalc.Vegas:      {Name: "netcalc vegas", Params: vegasParams(netcalc.VegasDefaults())},
}

// Table is the parameter table of a model congestion control, or nil.
func Table(cc netcalc.CCKind) *keyval.Table[Params] { return tables[cc] }

// Configure sets cfg's congestion control parameters: cfg.CC's defaults,
// then the KEY=VALUE overrides in the order given (a later one wins). An
// unknown key or a bad value is an input error naming the key. A dcqcn
// timeout of 0 becomes one past the horizon (netcalc reads 0 as 3 ms).
func Configure(cfg *netcalc.Config, kvs []string) error {
	t := tables[cfg.CC]
	if t == nil {
		return inputErrorf("--cca %q: unknown model congestion control (want linerate, dcqcn, aimd-rate, aimd-window or vegas)", cfg.CC)
	}
	p, _, _ := t.Preset("")
	p.Config.CC, p.Config.Dt, p.Config.Horizon, p.Config.Record = cfg.CC, cfg.Dt, cfg.Horizon, cfg.Record
	p.Config.C, p.Config.DeltaR, p.Config.Flows, p.Config.PFC = cfg.C, cfg.DeltaR, cfg.Flows, cfg.PFC
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usageErrorf("--cca-param %q: want KEY=VALUE", kv)
		}
		if t.Param(k) == nil {
			return inputErrorf("--cca-param %s: unknown parameter of %s (known: %s)", k, cfg.CC, strings.Join(t.Keys(), ", "))
		}
		if err := t.Set(&p, k, v); err != nil {
			if inner := errors.Unwrap(err); inner != nil {
				err = inner
			}
			return inputErrorf("--cca-param %s: %v", k, err)
		}
	}
	if p.InitRate > 0 {
		for i := range p.Config.Flows {
			p.Config.Flows[i].InitRate = p.InitRate
		}
	}
	if p.Config.CC == netcalc.DCQCN && p.Config.AIMD.Timeout == 0 {
		p.Config.AIMD.Timeout = p.Config.Horizon + p.Config.Dt
	}
	*cfg = p.Config
	return nil
}

// ParamHelp documents the model congestion controls and their
// parameters with their defaults, for --help.
func ParamHelp() string {
	var b strings.Builder
	b.WriteString("Model congestion controls (--cca), their --cca-param keys and defaults\n(units as in the rest of the CLI: 5Mbps, 200KB, 55us):\n")
	for _, cc := range CCs {
		fmt.Fprintf(&b, "  %s: %s\n", cc, ccDocs[cc])
		for _, p := range tables[cc].Schema(nil).Params {
			fmt.Fprintf(&b, "    %-10s %-8s %-8s %s\n", p.Key, p.Unit, p.Values[""], p.Doc)
		}
	}
	return b.String()
}
