-- comparison_table: comparison.parquet's run-wide rows (bucket -1) summarized
-- per algorithm over its seeds: the mean, and the min and max, of the
-- headline metrics, as `ccreplay compare` prints them side by side.
-- params: cmp (a compare folder)
--
-- cca is the algorithm as the runs' folders name it (cca=dcqcn-hpcc for
-- --cca dcqcn:hpcc: ':' becomes '-'), the value DuckDB's hive partitioning
-- reads; each run's summary.json has the spec as resolved (dcqcn:hpcc).
select
    cca,
    count(*)                 as runs,
    avg(fct_p50_ns)          as fct_p50_ns_mean,
    avg(fct_p99_ns)          as fct_p99_ns_mean,
    min(fct_p99_ns)          as fct_p99_ns_min,
    max(fct_p99_ns)          as fct_p99_ns_max,
    avg(slowdown_p50)        as slowdown_p50_mean,
    avg(slowdown_p99)        as slowdown_p99_mean,
    min(slowdown_p99)        as slowdown_p99_min,
    max(slowdown_p99)        as slowdown_p99_max,
    avg(ecn_ratio)           as ecn_ratio_mean,
    avg(unfair_ratio)        as unfair_ratio_mean,
    avg(jain_index)          as jain_index_mean,
    avg(goodput_bps)         as goodput_bps_mean,
    avg(qlen_max_bytes)      as qlen_max_bytes_mean,
    avg(pfc_pause_fraction)  as pfc_pause_fraction_mean,
    avg(drops_pkts)          as drops_pkts_mean
from read_parquet(getvariable('cmp') || '/comparison.parquet')
where bucket = -1
group by cca
order by cca;
