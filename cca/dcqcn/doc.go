// Package dcqcn implements the DCQCN reaction point (Zhu et al.,
// "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015) as
// a pure state machine behind cca.Algorithm.
//
// The sender keeps a current rate R_C (what Rate returns), a target rate
// R_T and a reduction factor alpha. Sources, as CC-NetCalc (Lehal 2024) (Lehal et al.)
// section V and its Tables I and II summarise them:
//
//	CNP (a cut):   R_T = R_C; R_C = R_C*(1 - alpha/2); alpha = (1-g)*alpha + g
//	every K:       alpha = (1-g)*alpha                    (no CNP in between)
//	every T, or every B bytes sent, without a CNP: i_T++ or i_B++, then
//	  fast recovery  max(i_T, i_B) <  F:  R_C = (R_T + R_C)/2
//	  additive       max(i_T, i_B) >= F:  R_T += R_AI; R_C = (R_T + R_C)/2
//	  hyper          min(i_T, i_B) >= F:  R_T += (min - F + 1)*R_HI; R_C = (R_T + R_C)/2
//
// Choices where the sources differ, each a parameter (see Keys):
//
//   - cut: Zhu 2015 Eq. (1) cuts by (1 - alpha/2) (default, "half-alpha");
//     CC-NetCalc (Lehal 2024) writes (1 - alpha) ("alpha").
//   - hyper increase: CC-NetCalc (Lehal 2024), Table I writes (min - 5)*R_HI, which adds
//     nothing on the first hyper step and so increases less than the
//     additive phase it follows. We use (min - F + 1)*R_HI, as Zhu's own
//     ns-3 DCQCN model does (qbb-net-device.cc, rpr_hyper_increase).
//   - alpha_mode and increase_mode "mlx" follow the Mellanox model of the
//     HPCC simulator (rdma-hw.cc, *Mlx functions): alpha on a free-running
//     clock fed by a per-slot CNP bit, and phases chosen from the counters'
//     values before the increment, with a constant hyper step.
//   - decrease_interval: a CNP arriving less than this after the previous
//     cut does not cut. NB: the HPCC simulator instead remembers such a CNP
//     and cuts at its next 4 us check; with a CNP gap at least as long as
//     the interval the two agree.
//   - clamp_target_rate=false keeps R_T on a cut unless an increase event
//     happened since the previous cut (HPCC's CLAMP_TARGET_RATE 0).
//   - min_dec_factor caps one cut: R_C keeps at least this fraction of its
//     value (ConnectX's rpg_min_dec_fac; off in every preset but
//     connectx, the NVIDIA/Mellanox NIC with its firmware defaults).
//
// Timers and counters run only after the first CNP: before it alpha keeps
// its initial value (CC-NetCalc, Lehal 2024: "Initially ... α is set to 1") and every
// increase event would leave R_C = R_T = line rate anyway. For the same
// reason the increase timer stops once R_C = R_T = line rate.
//
// NB: the alpha timer never changes the rate by itself, so NextTimer does
// not report it: every event method first replays, in time order, all
// alpha and increase ticks that are due, so the state is the same whether
// the NIC calls OnTimer on time, late, or not at all between events.
package dcqcn
