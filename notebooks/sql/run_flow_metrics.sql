-- run_flow_metrics: the flow metrics of one run, one row whose column names are
-- the keys of summary.json's "metrics" (see metrics/summary.go for definitions).
-- params: run (a run folder, as written by `ccreplay run --out`)
--
-- Percentiles: quantile_disc with a decimal literal picks the value at index
-- ceil(p*n) - 1 of the sorted values (nearest rank), the rule of
-- metrics/percentile.go; tests/duckdb checks this on DuckDB's own numbers.
-- Only finished flows (finish_ns >= 0) enter FCT, slowdown, goodput and
-- lifetime fairness; the counters sum over every flow. An empty set gives 0,
-- not NULL. The *_concurrent fairness is over every flow's concurrent_bytes
-- in the concurrency window [latest start_ns, earliest finish_ns (the run's
-- sim_duration_ns when none finished)], and 0 with concurrent_window_ns 0
-- when that window is shorter than 10 us (metrics.MinConcurrentWindowNs),
-- empty, or a flow never started.
--
-- FDCC thesis metrics (FDCC, Zhang 2023, Sec. 5.4): slowdown_standalone_* is
-- the receiver-side fct_ns / standalone_fct_ns ("FCTSD"); goodput_norm the
-- aggregate goodput over the receiver's NIC rate when every flow has one
-- destination (0 otherwise); pfc_paused_frac_mean the mean of
-- pfc_paused_ns / fct_ns over finished flows (0 when a row's pfc_paused_ns
-- is unknown, -1).
with f as (
    select *,
           finish_ns >= 0 as done,
           -- per-flow goodput x_i = size_bytes*8 / fct, bit/s (finished, fct_ns > 0)
           case when finish_ns >= 0 and fct_ns > 0
                then size_bytes::double * 8e9 / fct_ns::double end as x_bps
    from read_parquet(getvariable('run') || '/flows.parquet')
),
d as (
    select max(sim_duration_ns) as sim_duration_ns
    from read_parquet(getvariable('run') || '/ports.parquet')
),
w0 as (
    select max(f.start_ns) as w_start,
           least(coalesce(min(f.finish_ns) filter (where f.done), any_value(d.sim_duration_ns)),
                 any_value(d.sim_duration_ns)) - max(f.start_ns) as w_len,
           coalesce(bool_and(f.start_ns >= 0 and f.concurrent_bytes >= 0), false) as w_ok
    from f, d
),
w as (
    select w_start, w_len, w_ok and w_len >= 10000 as ok from w0
),
-- per-flow rate in the window c_i = concurrent_bytes*8 / window, bit/s
c as (
    select f.concurrent_bytes::double * 8e9 / w.w_len::double as c_bps
    from f, w where w.ok
),
-- the receiver's NIC rate when every flow goes to one host (node = dst)
r as (
    select min(p.rate_bps) as rate_bps
    from read_parquet(getvariable('run') || '/ports.parquet') p
    where not p.is_switch and p.rate_bps > 0
      and p.node = (select case when count(distinct dst) = 1 then any_value(dst) end from f)
)
select
    count(*)                                                          as flows,
    count(*) filter (where done)                                      as flows_finished,
    coalesce(avg(fct_ns) filter (where done), 0)                      as fct_mean_ns,
    coalesce(quantile_disc(fct_ns, 0.5) filter (where done), 0)       as fct_p50_ns,
    coalesce(quantile_disc(fct_ns, 0.9) filter (where done), 0)       as fct_p90_ns,
    coalesce(quantile_disc(fct_ns, 0.95) filter (where done), 0)      as fct_p95_ns,
    coalesce(quantile_disc(fct_ns, 0.99) filter (where done), 0)      as fct_p99_ns,
    coalesce(quantile_disc(fct_ns, 0.999) filter (where done), 0)     as fct_p999_ns,
    coalesce(max(fct_ns) filter (where done), 0)                      as fct_max_ns,
    coalesce(avg(slowdown) filter (where done and isfinite(slowdown)), 0)               as slowdown_mean,
    coalesce(quantile_disc(slowdown, 0.5) filter (where done and isfinite(slowdown)), 0)   as slowdown_p50,
    coalesce(quantile_disc(slowdown, 0.9) filter (where done and isfinite(slowdown)), 0)   as slowdown_p90,
    coalesce(quantile_disc(slowdown, 0.95) filter (where done and isfinite(slowdown)), 0)  as slowdown_p95,
    coalesce(quantile_disc(slowdown, 0.99) filter (where done and isfinite(slowdown)), 0)  as slowdown_p99,
    coalesce(quantile_disc(slowdown, 0.999) filter (where done and isfinite(slowdown)), 0) as slowdown_p999,
    coalesce(max(slowdown) filter (where done and isfinite(slowdown)), 0)               as slowdown_max,
    -- FCTSD = receiver-side FCT / standalone FCT (FDCC thesis, Sec. 5.4)
    coalesce(avg(fct_ns::double / standalone_fct_ns::double) filter (where done and standalone_fct_ns > 0), 0) as slowdown_standalone_mean,
    coalesce(quantile_disc(fct_ns::double / standalone_fct_ns::double, 0.5) filter (where done and standalone_fct_ns > 0), 0) as slowdown_standalone_p50,
    coalesce(quantile_disc(fct_ns::double / standalone_fct_ns::double, 0.99) filter (where done and standalone_fct_ns > 0), 0) as slowdown_standalone_p99,
    coalesce(sum(data_pkts_sent), 0)::bigint                          as data_pkts_sent,
    coalesce(sum(ce_pkts), 0)::bigint                                 as ce_pkts,
    -- ECN ratio = sum ce_pkts / sum data_pkts_sent (Dolce-RC's reward is 1 - this)
    coalesce(sum(ce_pkts)::double / nullif(sum(data_pkts_sent), 0)::double, 0) as ecn_ratio,
    coalesce(sum(cnps), 0)::bigint                                    as cnps,
    coalesce(sum(nacks), 0)::bigint                                   as nacks,
    coalesce(sum(timeouts), 0)::bigint                                as timeouts,
    coalesce(sum(retx_bytes), 0)::bigint                              as retx_bytes,
    -- unfair ratio = (max x - mean x) / mean x (FDCC thesis: FDCC, Zhang 2023, Sec. 5.4)
    coalesce((max(x_bps) - avg(x_bps)) / nullif(avg(x_bps), 0), 0)   as unfair_ratio,
    -- Jain index = (sum x)^2 / (n sum x^2)
    coalesce(sum(x_bps) * sum(x_bps) / nullif(count(x_bps) * sum(x_bps * x_bps), 0), 0) as jain_index,
    -- PCC-RL fairness = min x / max x (RL-CC, Tessler 2022, Sec. 3.2)
    coalesce(min(x_bps) / nullif(max(x_bps), 0), 0)                   as min_max_rate_ratio,
    -- aggregate goodput = payload bits of finished flows / (last finish - first start), bit/s
    coalesce((sum(size_bytes) filter (where done) * 8)::double * 1e9
             / nullif(max(finish_ns) filter (where done) - min(start_ns) filter (where done), 0)::double, 0) as goodput_bps,
    coalesce(avg(x_bps), 0)                                           as goodput_mean_bps,
    -- goodput / the receiver's link rate (FDCC thesis, Tables 6.1 and 6.2), n-to-1 only
    coalesce((sum(size_bytes) filter (where done) * 8)::double * 1e9
             / nullif(max(finish_ns) filter (where done) - min(start_ns) filter (where done), 0)::double
             / (select rate_bps from r)::double, 0)                  as goodput_norm,
    -- share of the FCT a flow was held by PFC at its sender (FDCC thesis, Fig. 6.3b)
    case when coalesce(bool_and(pfc_paused_ns >= 0), true)
         then coalesce(avg(pfc_paused_ns::double / fct_ns::double) filter (where done and fct_ns > 0), 0)
         else 0 end                                                   as pfc_paused_frac_mean,
    -- the same fairness during the incast (FDCC thesis, Sec. 5.4), over the window
    (select case when ok then w_start else 0 end from w)::bigint      as concurrent_window_start_ns,
    (select case when ok then w_len else 0 end from w)::bigint        as concurrent_window_ns,
    (select coalesce((max(c_bps) - avg(c_bps)) / nullif(avg(c_bps), 0), 0) from c) as unfair_ratio_concurrent,
    (select coalesce(sum(c_bps) * sum(c_bps) / nullif(count(c_bps) * sum(c_bps * c_bps), 0), 0) from c) as jain_index_concurrent,
    (select coalesce(min(c_bps) / nullif(max(c_bps), 0), 0) from c) as min_max_rate_ratio_concurrent
from f;
