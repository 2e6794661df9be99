-- compare_runs: the headline metrics of every run of a `ccreplay compare`
-- folder, one row per (cca, seed), computed from the runs' flows.parquet.
-- params: cmp (a compare folder, as written by `ccreplay compare --out`)
--
-- cca and seed come from the hive partitions OUT/cca=NAME/seed=N/ (':' in an
-- algorithm spec is '-' in NAME). The columns are named and computed as the
-- bucket -1 rows of comparison.parquet and the runs' summary.json
-- (run_flow_metrics.sql has the definitions).
with f as (
    select *,
           finish_ns >= 0 as done,
           case when finish_ns >= 0 and fct_ns > 0
                then size_bytes::double * 8e9 / fct_ns::double end as x_bps
    from read_parquet(getvariable('cmp') || '/*/*/flows.parquet', hive_partitioning = true)
)
select
    cca::varchar                                                      as cca,
    seed::bigint                                                      as seed,
    count(*)                                                          as flows,
    count(*) filter (where done)                                      as flows_finished,
    min(size_bytes)                                                   as size_min_bytes,
    max(size_bytes)                                                   as size_max_bytes,
    coalesce(quantile_disc(fct_ns, 0.5) filter (where done), 0)       as fct_p50_ns,
    coalesce(quantile_disc(fct_ns, 0.95) filter (where done), 0)      as fct_p95_ns,
    coalesce(quantile_disc(fct_ns, 0.99) filter (where done), 0)      as fct_p99_ns,
    coalesce(quantile_disc(slowdown, 0.5) filter (where done and isfinite(slowdown)), 0)  as slowdown_p50,
    coalesce(quantile_disc(slowdown, 0.95) filter (where done and isfinite(slowdown)), 0) as slowdown_p95,
    coalesce(quantile_disc(slowdown, 0.99) filter (where done and isfinite(slowdown)), 0) as slowdown_p99,
    coalesce(sum(ce_pkts)::double / nullif(sum(data_pkts_sent), 0)::double, 0) as ecn_ratio,
    coalesce((max(x_bps) - avg(x_bps)) / nullif(avg(x_bps), 0), 0)   as unfair_ratio,
    coalesce(sum(x_bps) * sum(x_bps) / nullif(count(x_bps) * sum(x_bps * x_bps), 0), 0) as jain_index,
    coalesce((sum(size_bytes) filter (where done) * 8)::double * 1e9
             / nullif(max(finish_ns) filter (where done) - min(start_ns) filter (where done), 0)::double, 0) as goodput_bps
from f
group by cca, seed
order by cca, seed;
