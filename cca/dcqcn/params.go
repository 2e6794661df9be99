package dcqcn

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "hpcc-run"

// table is DCQCN's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// Presets:
//   - zhu2015: CC-NetCalc (Lehal 2024), Table II ("Parameter setting for DCQCN from [5],
//     [46]", [5] = Zhu et al. 2015): Kmin 5 kB, Kmax 200 kB, Pmax 1 %,
//     g 1/256, T_gap 50 us, K = T = 55 us, B = 10 MB, R_AI 5 Mb/s,
//     R_HI 50 Mb/s; F = 5 from Table I. min_rate 100 Mb/s is our choice
//     (the HPCC simulator's MinRate default; neither Zhu 2015 nor CC-NetCalc (Lehal 2024),
//     gives one).
//   - hpcc-run (the default; alias hpcc): DCQCN as the HPCC paper's
//     experiments ran it. HPCC (Li 2019) generated its simulations with the
//     HPCC repository's simulation/run.py (alibaba-edu/High-Precision-
//     Congestion-Control), whose `--cc dcqcn` branch (line 104) writes,
//     for a NIC of bw Gb/s: CC_MODE 1 (the Mellanox DCQCN model of
//     rdma-hw.cc), ALPHA_RESUME_INTERVAL 1 (us), RATE_DECREASE_INTERVAL
//     4 (us), RP_TIMER 300 (us), EWMA_GAIN 0.00390625, and from the
//     template (lines 5-63) CLAMP_TARGET_RATE 0, FAST_RECOVERY_TIMES 1,
//     MIN_RATE 1000Mb/s; RATE_AI = 5*bw/25 and RATE_HAI = 50*bw/25 Mb/s
//     (lines 100-101): 20 and 200 Mb/s at 100 Gb/s, scaled here with the
//     line rate (ai_ref_rate 100Gbps); KMIN_MAP, KMAX_MAP and PMAX_MAP
//     100*bw/25 KB, 400*bw/25 KB and 0.2 for links of bw Gb/s and four
//     times that for links of 4*bw (lines 96-98): 400 KB / 1600 KB / 0.2 at
//     100 Gb/s, linear in the link rate (ecn_ref_rate 100Gbps). No byte
//     counter (the model has none). The simulator has no CNP gap (every
//     ACK of a CE-marked packet carries the CNP flag); the 1 us CNP
//     interval is our choice, one alpha slot, so that every slot can still
//     see a CNP while cuts stay paced by decrease_interval. ACK_HIGH_PRIO 1
//     (ACKs in the high-priority queue) is not a setting of the algorithm.
//   - hpcc-run-paper: run.py's `--cc dcqcn_paper` (line 106), its reading
//     of Zhu 2015's timers: hpcc-run with ALPHA_RESUME_INTERVAL 50 (us),
//     RATE_DECREASE_INTERVAL 50 (us) and RP_TIMER 55 (us).
//   - hpcc-config (alias hpcc-repo): the HPCC repository's sample
//     simulation/mix/config.txt
//     run through the same Mellanox model: RATE_AI 50Mb/s, RATE_HAI
//     100Mb/s, MIN_RATE 100Mb/s, RP_TIMER 900 (us), ALPHA_RESUME_INTERVAL
//     1 (us), EWMA_GAIN 0.00390625, FAST_RECOVERY_TIMES 1,
//     RATE_DECREASE_INTERVAL 4 (us), CLAMP_TARGET_RATE 0;
//     KMIN_MAP/KMAX_MAP/PMAX_MAP 100 kB/400 kB/0.2 at 25 Gb/s, scaled
//     linearly with the link rate; the CNP interval as hpcc-run. A sample
//     file: no published experiment used these values (run.py overwrites
//     every one of them).
//   - dolce-sim (alias dolce, dolce-paper): the DCQCN baseline of Dolce-RC
//     (Ye 2023)'s ns-3 simulations (Section V-C, Tables I and II; Section
//     V-A's settings): zhu2015 with Kmin 7 KB and Kmax 500 KB (Section
//     V-A, "for fair comparisons") and a 55 us CNP interval: Section IV-A
//     takes five CNP intervals to be "about one fast recovery phase", F x T
//     = 5 x 55 us. Pmax is not stated: zhu2015's 1 %.
//   - dolce-testbed: the DCQCN of Dolce-RC (Ye 2023)'s testbed (Section
//     V-B, Fig. 5), ConnectX NICs: connectx's reaction point with the
//     paper's Kmin 7 KB and Kmax 500 KB (Section V-A), Pmax 1 % as
//     dolce-sim, and the NICs' minimum CNP interval of 1 us (Section
//     IV-B.1, MIN_TIME_BETWEEN_CNPS = 1).
//   - zhu2015-ns3: zhu2015's values run the way Zhu et al.'s own ns-3 DCQCN
//     model runs them (github.com/bobzhuyb/ns3-rdma, qbb-net-device.cc, the
//     simulator CC-NetCalc (Lehal 2024) Section V-A used, its reference [47]):
//     alpha starts at 0.5 (the QbbNetDevice constructor) and each cut
//     updates alpha before cutting with it (rpr_cnm_received), so the first
//     cut keeps 75 % of the rate, not 50 %. Not modelled from that code:
//     its hyper-increase stage halving T and B, its target-rate cut to an
//     eighth when the target exceeds ten times the rate at the first
//     increase, and its CNP check every T_gap from the flow's first packet
//     (ours sends at the first marked packet at least T_gap after the last
//     CNP).
//   - connectx (alias nvidia): DCQCN as NVIDIA/Mellanox ConnectX-4 and
//     later NICs run it, with the firmware's factory defaults, and the ECN
//     marking NVIDIA's switch software sets for RoCE; value by value below.
//
// The aliases hpcc, hpcc-repo, dolce and dolce-paper are names earlier
// versions used (hpcc and hpcc-repo then both meant hpcc-config; dolce
// was zhu2015 with a 1 us CNP interval, the testbed's setting on the
// simulations' reaction point); nvidia is the vendor's name for connectx.
// Spec.Name always carries the canonical name.
//
// The connectx preset names each vendor parameter (sysfs/debugfs name /
// mlxconfig name), its default and where the default comes from:
// [D] ConnectX DCQCN docs (NVIDIA), "DCQCN CC Parameters" (DOCA SDK
// documentation 3.4.0); [C] the Mellanox community page "DCQCN Parameters"
// (DOC-2790, versions 13 and 19), part of the same docs; [Q] ConnectX
// mlxconfig defaults, `mlxconfig query` of a ConnectX-5 and of a
// ConnectX-6 Lx at factory settings; [W] the ConWeave simulator's list of
// the Mellanox defaults (docs/REFERENCES.md has all four). Reaction point:
//
//   - dce_tcp_rtt / DCE_TCP_RTT 1 us [D, Q, W]: alpha_timer 1us, with
//     alpha_mode mlx: alpha is updated once per period whether or not a
//     CNP came [C], as in the HPCC simulator's Mellanox model.
//   - dce_tcp_g / DCE_TCP_G 1019 [D, Q, W], a fraction with 10 bits [D]:
//     g = (1024-1019)/1024 = 0.0048828125. NB: the sources differ on which
//     side of the EWMA 1019 weighs. Version 19 of [C] decays alpha to
//     1019/1024 of itself per period without a CNP, and the increase of
//     both versions gives the old alpha the weight 1019/1024: our reading.
//     Version 13 of [C] decays alpha to 5/1024 of itself, and [W] calls
//     1019 the weight of the new sample; either would make alpha forget
//     all but 0.5 % of itself in one 1 us period. Our reading also puts g
//     near Zhu 2015's 1/256.
//   - initial_alpha_value / INITIAL_ALPHA_VALUE 1023 [D, Q, W], a fraction
//     of 1024: alpha_init 0.9990234375. The NIC applies it at the first
//     CNP; alpha does not change before it here either.
//   - rate_reduce_monitor_period / RATE_REDUCE_MONITOR_PERIOD 4 us [D, Q,
//     W]: decrease_mode tick, decrease_interval 4us. CNPs within a period
//     cut once at the start of the next period [W]: the tick clock, not an
//     immediate cut followed by a hold-off.
//   - rate_to_set_on_first_cnp / RATE_TO_SET_ON_FIRST_CNP 0 [D, Q, W]: 0
//     sets no special rate ([D] allows 0 or 1..line rate), so the first
//     CNP leaves the rate alone and the first cut comes at the first tick,
//     as decrease_mode tick does.
//   - rpg_gd / RPG_GD 11 [D, Q, W]: the divisor of alpha, a base-2
//     logarithm in fixed point with 10 fraction bits [D] (alpha has 10
//     too), so 11 is R_C*(1 - alpha/2), cut half-alpha; the only other
//     value [D] allows, 10, is cut alpha. An early mlxconfig help text
//     (Mellanox/mstflint) gives 7 from 0..15; we follow [D] and [Q].
//   - rpg_min_dec_fac / RPG_MIN_DEC_FAC 50 % [D, Q, W]: min_dec_factor
//     0.5, one cut keeps at least half the rate [C]. With cut half-alpha
//     and alpha <= 1 the cap never binds; it does with cut alpha or a
//     larger factor.
//   - rpg_min_rate / RPG_MIN_RATE 1 Mb/s [D, Q]: min_rate 1Mbps.
//     rpg_max_rate 0 [Q] is the port speed, our ceiling anyway.
//   - rpg_time_reset / RPG_TIME_RESET 300 us [Q, W]: increase_timer 300us.
//   - rpg_byte_reset / RPG_BYTE_RESET 32767 B [Q, W]: byte_counter 32767B.
//   - rpg_threshold / RPG_THRESHOLD 1 [Q, W]: fast_recovery 1, with
//     increase_mode mlx (the HPCC simulator's reading of the Mellanox state
//     machine; the vendor pages do not give the counting order).
//   - rpg_ai_rate / RPG_AI_RATE 5 Mb/s and rpg_hai_rate / RPG_HAI_RATE
//     50 Mb/s [Q]: ai_rate 5Mbps, hai_rate 50Mbps.
//   - clamp_tgt_rate / CLAMP_TGT_RATE 0 and clamp_tgt_rate_after_time_inc
//     / CLAMP_TGT_RATE_AFTER_TIME_INC 1 [Q, W]: clamp_target_rate false.
//     With the second set, a CNP sets R_T = R_C if an increase event of
//     either kind, timer or byte counter, came since the previous cut ([W]
//     and the early help text: timer increases count too, not only
//     byte-counter ones), which is what false does. Its value 0
//     (byte-counter events only) is not modelled.
//
// NB: the early mlxconfig help text (Mellanox/mstflint) lists older
// defaults throughout (rpg_time_reset 2 us, rpg_byte_reset 150 B,
// rpg_threshold 5, rpg_ai_rate 10 Mb/s, rpg_min_rate 2000 Mb/s, dce_tcp_g
// 64, dce_tcp_rtt 2 us, rate_reduce_monitor_period 2 us,
// min_time_between_cnps 0). What ConnectX-5 and -6 report [Q] agrees with
// [D] wherever [D] gives a value, so we take [Q]. Notification point:
//
//   - min_time_between_cnps / MIN_TIME_BETWEEN_CNPS 4 us [Q]: cnp_interval
//     4us. The early help text and the mlx5 debugfs patch that exposed it
//     say 0; the copy of [D] we could read stops before the notification
//     point. Dolce-RC (Ye 2023), Section IV-B sets it to 1 us on its
//     testbed: pass cnp_interval=1us for that. NB: the vendor applies the
//     gap per port, ccreplay's NIC per queue pair.
//   - cnp_dscp / CNP_DSCP 48 and cnp_802p_prio / CNP_802P_PRIO 6 [Q]: not
//     modelled.
//
// Switch (not part of the NIC): kmin 150KB, kmax 1500KB, pmax 1, at every
// link rate: the ECN defaults of NVIDIA's switch software for RoCE
// (Cumulus Linux RoCE (NVIDIA): min_threshold_bytes 150000,
// max_threshold_bytes 1500000, probability 100; Onyx's `show roce` shows
// the same 150 and 1500 KB).
var table = &keyval.Table[Config]{
	Name:    "dcqcn",
	Default: DefaultPreset,
	Base:    "zhu2015", // a Config built in Go is DCQCN (Zhu 2015)'s where it is zero
	Presets: []cca.Preset{
		{Name: "hpcc-run", Aliases: []string{"hpcc"},
			Doc:        "the HPCC repository's simulation/run.py, --cc dcqcn (line 104): AI 5*bw/25, HAI 50*bw/25 Mb/s (20/200 at 100G), RP_TIMER 300us, alpha 1us, decrease 4us, MIN_RATE 1Gb/s, ECN 100/400 KB per 25G and 0.2 (lines 96-98)",
			Reproduces: "HPCC (Li 2019), Section 5's DCQCN (the simulations run.py generated)"},
		{Name: "hpcc-run-paper",
			Doc:        "run.py --cc dcqcn_paper (line 106): hpcc-run with alpha and decrease intervals 50us and RP_TIMER 55us",
			Reproduces: "HPCC (Li 2019), its DCQCN with Zhu 2015's timers (run.py's dcqcn_paper)"},
		{Name: "hpcc-config", Aliases: []string{"hpcc-repo"},
			Doc:        "the HPCC repository's sample simulation/mix/config.txt through its Mellanox DCQCN model (rdma-hw.cc): AI 50, HAI 100, MIN_RATE 100 Mb/s, RP_TIMER 900us",
			Reproduces: "none (a sample file; run.py overwrites every value)"},
		{Name: "zhu2015", Doc: "CC-NetCalc (Lehal 2024), Table II, the settings of Zhu et al. 2015",
			Reproduces: "CC-NetCalc (Lehal 2024), Section V's fluid and network-calculus DCQCN"},
		{Name: "zhu2015-ns3", Doc: "zhu2015's values as Zhu et al.'s own ns-3 DCQCN model (ns3-rdma) runs them: alpha starts at 0.5 and is updated before each cut",
			Reproduces: "CC-NetCalc (Lehal 2024), Section V-A's ns-3 simulations"},
		{Name: "dolce-sim", Aliases: []string{"dolce", "dolce-paper"},
			Doc:        "Dolce-RC (Ye 2023), Section V-A's DCQCN baseline in ns-3: zhu2015 with Kmin 7KB, Kmax 500KB, CNP interval 55us (Section IV-A: five CNP intervals are one fast recovery phase, 5 x 55us)",
			Reproduces: "Dolce-RC (Ye 2023), Tables I and II (the DCQCN rows)"},
		{Name: "dolce-testbed",
			Doc:        "Dolce-RC (Ye 2023), Section V-B's testbed DCQCN: connectx with Kmin 7KB, Kmax 500KB, Pmax 1%, CNP interval 1us (Section IV-B.1)",
			Reproduces: "Dolce-RC (Ye 2023), Fig. 5 (the DCQCN curve)"},
		{Name: "connectx", Aliases: []string{"nvidia"},
			Doc:        "NVIDIA/Mellanox ConnectX-4 and later NICs' DCQCN with the firmware defaults (ConnectX DCQCN docs, NVIDIA; ConnectX mlxconfig defaults), switch ECN 150KB/1500KB/100% (Cumulus Linux RoCE, NVIDIA)",
			Reproduces: "none (vendor defaults)"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Rate("ai_rate", func(c *Config) *units.BitsPerSec { return &c.AIRate }).
			Default("5Mbps").In("hpcc-run", "20Mbps").In("hpcc-run-paper", "20Mbps").In("hpcc-config", "50Mbps").DefaultIfZero().
			Doc("R_AI, the additive-increase step of the target rate"),
		keyval.Rate("hai_rate", func(c *Config) *units.BitsPerSec { return &c.HAIRate }).
			Default("50Mbps").In("hpcc-run", "200Mbps").In("hpcc-run-paper", "200Mbps").In("hpcc-config", "100Mbps").DefaultIfZero().
			Doc("R_HI, the hyper-increase step of the target rate"),
		keyval.Rate("ai_ref_rate", func(c *Config) *units.BitsPerSec { return &c.AIRefRate }).Zero("off", "none", "0").
			Default("off").In("hpcc-run", "100Gbps").In("hpcc-run-paper", "100Gbps").
			Doc("line rate ai_rate and hai_rate are given for, scaled linearly to a flow's line rate (off: the same at every rate)"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("100Mbps").In("hpcc-run", "1Gbps").In("hpcc-run-paper", "1Gbps").In("connectx", "1Mbps").In("dolce-testbed", "1Mbps").DefaultIfZero().
			Doc("floor of R_C and R_T (lowered to the line rate at Start)"),
		keyval.Real("g", func(c *Config) *float64 { return &c.G }, keyval.UnitNonZero).
			Default("0.00390625").In("connectx", "0.0048828125").In("dolce-testbed", "0.0048828125").DefaultIfZero().
			Doc("g, the gain of alpha's EWMA"),
		keyval.Real("alpha_init", func(c *Config) *float64 { return &c.AlphaInit }, keyval.UnitNonZero).
			Default("1").In("connectx", "0.9990234375").In("dolce-testbed", "0.9990234375").In("zhu2015-ns3", "0.5").DefaultIfZero().
			Doc("alpha at Start (CC-NetCalc, Lehal 2024 section V: alpha is set to 1)"),
		keyval.Enum("alpha_mode", func(c *Config) *AlphaMode { return &c.AlphaMode }, AlphaZhu, AlphaMlx).
			Default("zhu").In("hpcc-run", "mlx").In("hpcc-run-paper", "mlx").In("hpcc-config", "mlx").In("connectx", "mlx").In("dolce-testbed", "mlx").DefaultIfZero().
			Doc("alpha update: zhu (every cut and every K without a CNP) or mlx (a clock of period K)"),
		keyval.Enum("decrease_mode", func(c *Config) *DecreaseMode { return &c.DecreaseMode }, DecreaseImmediate, DecreaseTick).
			Default("immediate").In("hpcc-run", "tick").In("hpcc-run-paper", "tick").In("hpcc-config", "tick").In("connectx", "tick").In("dolce-testbed", "tick").DefaultIfZero().
			Doc("when a CNP cuts: immediate (at most once per decrease_interval) or tick (a clock of period decrease_interval from the first CNP, the HPCC simulator's Mellanox model)"),
		keyval.Time("alpha_timer", func(c *Config) *units.Time { return &c.AlphaTimer }).Positive().
			Default("55us").In("hpcc-run", "1us").In("hpcc-run-paper", "50us").In("hpcc-config", "1us").In("connectx", "1us").In("dolce-testbed", "1us").DefaultIfZero().
			Doc("K, the alpha update period"),
		keyval.Time("increase_timer", func(c *Config) *units.Time { return &c.IncreaseTimer }).Positive().
			Default("55us").In("hpcc-run", "300us").In("hpcc-config", "900us").In("connectx", "300us").In("dolce-testbed", "300us").DefaultIfZero().
			Doc("T, the rate-increase timer period"),
		keyval.Size("byte_counter", func(c *Config) *units.Bytes { return &c.ByteCounter }).Zero("off", "none", "0").
			Default("10MB").In("hpcc-run", "off").In("hpcc-run-paper", "off").In("hpcc-config", "off").In("connectx", "32767B").In("dolce-testbed", "32767B").
			Doc("B, bytes sent per byte-counter increase event (off: i_B follows i_T)"),
		keyval.Int("fast_recovery", func(c *Config) *int { return &c.FastRecovery }, keyval.AtLeast(1)).
			Default("5").In("hpcc-run", "1").In("hpcc-run-paper", "1").In("hpcc-config", "1").In("connectx", "1").In("dolce-testbed", "1").DefaultIfZero().
			Doc("F, increase events of fast recovery before additive or hyper increase"),
		keyval.Enum("increase_mode", func(c *Config) *IncreaseMode { return &c.IncreaseMode }, IncreaseZhu, IncreaseMlx).
			Default("zhu").In("hpcc-run", "mlx").In("hpcc-run-paper", "mlx").In("hpcc-config", "mlx").In("connectx", "mlx").In("dolce-testbed", "mlx").DefaultIfZero().
			Doc("how the counters pick the increase phase: zhu (count, then compare) or mlx"),
		keyval.Time("decrease_interval", func(c *Config) *units.Time { return &c.DecreaseInterval }).
			Default("0us").In("hpcc-run", "4us").In("hpcc-run-paper", "50us").In("hpcc-config", "4us").In("connectx", "4us").In("dolce-testbed", "4us").
			Doc("minimum time between two cuts (0: every CNP cuts)"),
		keyval.Enum("cut", func(c *Config) *CutMode { return &c.Cut }, CutHalfAlpha, CutAlpha).
			Default("half-alpha").DefaultIfZero().
			Doc("the decrease: half-alpha R_C*(1-alpha/2) (Zhu 2015 Eq. (1)) or alpha (1-alpha)*R_C (CC-NetCalc, Lehal 2024)"),
		keyval.Bool("alpha_first", func(c *Config) *bool { return &c.AlphaFirst }).
			Default("false").In("zhu2015-ns3", "true").
			Doc("with alpha_mode zhu, a cut updates alpha first and cuts with the new value (Zhu et al.'s ns-3 model) instead of the value before the CNP"),
		keyval.Real("min_dec_factor", func(c *Config) *float64 { return &c.MinDecFactor }, keyval.Unit).Zero("off", "none", "0").
			Default("off").In("connectx", "0.5").In("dolce-testbed", "0.5").
			Doc("least fraction of R_C one cut keeps (ConnectX rpg_min_dec_fac/100; off: no cap)"),
		keyval.BoolNot("clamp_target_rate", func(c *Config) *bool { return &c.KeepTargetRate }).
			Default("true").In("hpcc-run", "false").In("hpcc-run-paper", "false").In("hpcc-config", "false").In("connectx", "false").In("dolce-testbed", "false").
			Doc("every cut sets R_T = R_C (false: only after an increase event, HPCC's CLAMP_TARGET_RATE 0)"),
		keyval.Size("window", func(c *Config) *units.Bytes { return &c.Window }).Zero("none", "off", "0").
			Word("bdp", func(c *Config) { c.Window, c.WindowBDP = 0, true }, func(c *Config) bool { return c.WindowBDP }).
			OnSet(func(c *Config) { c.WindowBDP = false }).
			Default("none").
			Doc("cap on bytes in flight (bdp: the path's bandwidth-delay product at Start)"),
		keyval.Size("kmin", func(c *Config) *units.Bytes { return &c.Kmin }).Zero("0B", "off", "none", "0").
			Default("5KB").In("hpcc-run", "400KB").In("hpcc-run-paper", "400KB").In("hpcc-config", "100KB").In("dolce-sim", "7KB").In("dolce-testbed", "7KB").In("connectx", "150KB").
			Doc("RED threshold below which switches mark nothing"),
		keyval.Size("kmax", func(c *Config) *units.Bytes { return &c.Kmax }).Zero("0B", "off", "none", "0").
			Default("200KB").In("hpcc-run", "1600KB").In("hpcc-run-paper", "1600KB").In("hpcc-config", "400KB").In("dolce-sim", "500KB").In("dolce-testbed", "500KB").In("connectx", "1500KB").
			Doc("RED threshold at which the marking probability reaches pmax"),
		keyval.Real("pmax", func(c *Config) *float64 { return &c.Pmax }, keyval.Unit).
			Default("0.01").In("hpcc-run", "0.2").In("hpcc-run-paper", "0.2").In("hpcc-config", "0.2").In("connectx", "1").
			Doc("marking probability at kmax"),
		keyval.Rate("ecn_ref_rate", func(c *Config) *units.BitsPerSec { return &c.ECNRefRate }).Zero("off", "none", "0").
			Default("off").In("hpcc-run", "100Gbps").In("hpcc-run-paper", "100Gbps").In("hpcc-config", "25Gbps").
			Doc("link rate kmin and kmax are given for, scaled linearly to other rates (off: the same at every rate)"),
		keyval.Time("cnp_interval", func(c *Config) *units.Time { return &c.CNPInterval }).Positive().
			Default("50us").In("hpcc-run", "1us").In("hpcc-run-paper", "1us").In("hpcc-config", "1us").In("dolce-sim", "55us").In("dolce-testbed", "1us").In("connectx", "4us").DefaultIfZero().
			Doc("T_gap, the receiver's minimum time between two CNPs of a queue pair"),
	},
}

// algorithm registers DCQCN under the name "dcqcn".
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "DCQCN (Zhu et al. 2015)",
	Validate: (*Config).validate,
	Spec: func(c Config) cca.Spec {
		shared := c // read-only, one per Spec: every flow's DCQCN points to it
		return c.Hints(cca.Spec{New: func() cca.Algorithm { return newValid(&shared) }})
	},
}

// Preset returns the configuration of a named preset ("" for the default,
// or an alias).
func Preset(name string) (Config, error) {
	c, _, err := table.Preset(name)
	return c, err
}

// Register adds DCQCN to r under the name "dcqcn".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of DCQCN: it resolves a preset, applies the
// key=value overrides (see table) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}

// Table is DCQCN's parameter table, for algorithms that take DCQCN's keys
// (Dolce-RC lifts them with keyval.Lift).
func Table() *keyval.Table[Config] { return table }
