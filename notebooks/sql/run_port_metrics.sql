-- run_port_metrics: drops, PFC, queue and utilization metrics of one run from
-- ports.parquet, one row named as summary.json's "metrics" keys.
-- params: run (a run folder)
--
-- Sums run over every port of every node; queue lengths and utilization over
-- switch ports only. Utilization of a switch port with traffic =
-- tx_bytes*8 / (rate_bps * sim_duration_ns / 1e9); PFC fraction =
-- sum paused_ns / sum sim_duration_ns (= / (ports * run length)).
with p as (
    select *,
           case when is_switch and tx_bytes > 0 and rate_bps > 0 and sim_duration_ns > 0
                then tx_bytes::double * 8e9 / (rate_bps::double * sim_duration_ns::double) end as util
    from read_parquet(getvariable('run') || '/ports.parquet')
)
select
    coalesce(max(sim_duration_ns), 0)                                  as sim_duration_ns,
    coalesce(sum(dropped_pkts), 0)::bigint                             as drops_pkts,
    coalesce(sum(dropped_bytes), 0)::bigint                            as drops_bytes,
    coalesce(sum(pauses_sent), 0)::bigint                              as pause_frames,
    coalesce(sum(ecn_marked_pkts), 0)::bigint                          as ecn_marked_pkts,
    coalesce(sum(paused_ns)::double / nullif(sum(sim_duration_ns), 0)::double, 0) as pfc_pause_fraction,
    coalesce(max(coalesce(paused_ns::double / nullif(sim_duration_ns, 0)::double, 0)), 0) as pfc_pause_fraction_max,
    coalesce(max(qlen_avg_bytes) filter (where is_switch), 0)          as qlen_avg_bytes,
    coalesce(max(qlen_p99_bytes) filter (where is_switch), 0)          as qlen_p99_bytes,
    coalesce(max(qlen_max_bytes) filter (where is_switch), 0)          as qlen_max_bytes,
    coalesce(max(util), 0)                                             as switch_util_max,
    coalesce(avg(util), 0)                                             as switch_util_mean
from p;
