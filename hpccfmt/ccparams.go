package hpccfmt

import (
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/units"
)

// CCParams returns the ccreplay algorithm (Algorithm) and the key=value
// parameters that reproduce the simulator's settings, for the algorithm's
// cca Build. Keys with no usable value are left out, so the preset's
// value applies: RATE_AI, RATE_HAI and RP_TIMER when absent (the
// simulator has no default), EWMA_GAIN when absent (its default
// evaluates to 0).
//
//	config.txt               dcqcn               hpcc        timely                 dctcp
//	RATE_AI                  ai_rate             ai_rate     delta                  -
//	RATE_HAI                 hai_rate            -           hai_factor (1)         -
//	MIN_RATE                 min_rate            min_rate    min_rate               min_rate
//	DCTCP_RATE_AI            -                   -           -                      ai_rate
//	EWMA_GAIN                g                   -           -                      g
//	RP_TIMER (us)            increase_timer      -           -                      -
//	ALPHA_RESUME_INTERVAL    alpha_timer (2)     -           -                      -
//	RATE_DECREASE_INTERVAL   decrease_interval   -           -                      -
//	FAST_RECOVERY_TIMES      fast_recovery       -           -                      -
//	CLAMP_TARGET_RATE        clamp_target_rate   -           -                      -
//	U_TARGET                 -                   eta         -                      -
//	MI_THRESH                -                   max_stage   -                      -
//	FAST_REACT               -                   fast_react  -                      -
//	KMIN/KMAX/PMAX_MAP       kmin kmax pmax      -           -                      -
//	                         ecn_ref_rate (3)
//	(the file's own rates)   ai_ref_rate=off     ai_ref_rate=off -                  -
//	(fixed in the simulator) alpha_mode=mlx      -           hai_mode=increase      -
//	                         increase_mode=mlx               hai_after=5
//	                         byte_counter=off                segment=rtt
//	                         decrease_mode=tick              first_record_only=true
//	                         window=off (4)                  alpha=0.875 beta=0.8
//	                                                         t_low=50us t_high=500us
//	                                                         min_rtt=20us (5)
//
// (1) The simulator's hyperactive step adds RATE_HAI; ccreplay's TIMELY
// adds hai_factor x delta, so hai_factor = RATE_HAI / RATE_AI, given only
// when that is a whole number >= 1. (2) Also cnp_interval, for the same
// parameters as the dcqcn "hpcc-run" preset (one CNP per alpha slot is what
// the Mellanox model can see); a --hpcc-config run sends no CNP packets
// at all, its receivers flag the ACK of every marked packet as the
// simulator does (nic CNPOnAck), so there it has no effect. (3) Only when the table scales linearly with the rate
// (equal kmin/rate, kmax/rate and pmax at every rate), with the smallest
// rate as reference; otherwise configure switches from ECNTable. (4) The
// window is the queue pair's, not the algorithm's: HAS_WIN, VAR_WIN and
// GLOBAL_T are the host model's (runconfig's applyModel: nic window_bdp
// and window scaling, the base RTT every algorithm is given, for every
// CC_MODE), and so is INT_MULTI (the switches' INT rounding under
// HPCC). (5) rdma-hw.cc attribute defaults that config.txt cannot
// change. MULTI_RATE, SAMPLE_FEEDBACK and RATE_BOUND are checked by the
// parser; the network keys (BUFFER_SIZE, PACKET_PAYLOAD_SIZE,
// L2_ACK_INTERVAL, ENABLE_QCN, ACK_HIGH_PRIO, ...) are Config fields.
func (c *Config) CCParams() (name string, params map[string]string) {
	p := map[string]string{"min_rate": units.FormatRate(c.MinRate)}
	switch c.Algorithm {
	case "dcqcn":
		c.optRate(p, "RATE_AI", "ai_rate", c.RateAI)
		c.optRate(p, "RATE_HAI", "hai_rate", c.RateHAI)
		p["ai_ref_rate"] = "off" // the file's steps are for its own NIC rate already
		if c.Has("EWMA_GAIN") {
			p["g"] = units.FormatFloat(c.EWMAGain)
		}
		if c.Has("RP_TIMER") {
			p["increase_timer"] = units.FormatDuration(c.RPTimer)
		}
		p["alpha_timer"] = units.FormatDuration(c.AlphaResumeInterval)
		p["cnp_interval"] = units.FormatDuration(c.AlphaResumeInterval)
		p["decrease_interval"] = units.FormatDuration(c.RateDecreaseInterval)
		p["fast_recovery"] = strconv.Itoa(c.FastRecoveryTimes)
		p["clamp_target_rate"] = strconv.FormatBool(c.ClampTargetRate)
		p["alpha_mode"], p["increase_mode"], p["byte_counter"] = "mlx", "mlx", "off"
		p["decrease_mode"] = "tick"
		p["window"] = "off" // the NIC's window (HAS_WIN, VAR_WIN) applies
		if e, ok := c.linearECN(); ok {
			p["kmin"], p["kmax"] = units.FormatSize(e.Kmin), units.FormatSize(e.Kmax)
			p["pmax"], p["ecn_ref_rate"] = units.FormatFloat(e.Pmax), units.FormatRate(e.Rate)
		}
	case "hpcc":
		p["eta"] = units.FormatFloat(c.UTarget)
		p["max_stage"] = strconv.Itoa(c.MIThresh)
		p["fast_react"] = strconv.FormatBool(c.FastReact)
		c.optRate(p, "RATE_AI", "ai_rate", c.RateAI)
		p["ai_ref_rate"] = "off"
	case "timely":
		c.optRate(p, "RATE_AI", "delta", c.RateAI)
		if c.RateAI > 0 && c.RateHAI >= c.RateAI && c.RateHAI%c.RateAI == 0 {
			p["hai_factor"] = strconv.FormatInt(int64(c.RateHAI/c.RateAI), 10)
		}
		p["hai_mode"], p["hai_after"], p["segment"] = "increase", "5", "rtt"
		p["first_record_only"] = "true"
		p["alpha"], p["beta"] = "0.875", "0.8"
		p["t_low"], p["t_high"], p["min_rtt"] = "50us", "500us", "20us"
	case "dctcp":
		p["ai_rate"] = units.FormatRate(c.DCTCPRateAI)
		if c.Has("EWMA_GAIN") {
			p["g"] = units.FormatFloat(c.EWMAGain)
		}
	}
	return c.Algorithm, p
}

// optRate sets p[param] from a rate key the file gave.
func (c *Config) optRate(p map[string]string, key, param string, r units.BitsPerSec) {
	if c.Has(key) {
		p[param] = units.FormatRate(r)
	}
}

// linearECN returns the smallest-rate entry when every entry's thresholds
// are proportional to its rate and the pmax values are equal.
func (c *Config) linearECN() (ECNEntry, bool) {
	t := c.ECNTable()
	if len(t) == 0 {
		return ECNEntry{}, false
	}
	ref := t[0]
	for _, e := range t[1:] {
		scale := float64(e.Rate) / float64(ref.Rate)
		if !nearlyEqual(float64(e.Kmin), float64(ref.Kmin)*scale) || !nearlyEqual(float64(e.Kmax), float64(ref.Kmax)*scale) || e.Pmax != ref.Pmax {
			return ECNEntry{}, false
		}
	}
	return ref, true
}

func nearlyEqual(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b)) }
