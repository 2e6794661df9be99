-- compare_slowdown_by_size: FCT and slowdown per flow-size bucket of every
-- run of a `ccreplay compare` folder, one row per (cca, seed, bucket): the
-- bucket >= 0 rows of comparison.parquet.
-- params: cmp (a compare folder)
--
-- Buckets as run_slowdown_by_size.sql, within each run: 10 groups of equal
-- count in (size_bytes, flow_id) order; every run of one workload has the
-- same boundaries. Percentiles are nearest rank over finished flows.
with f as (
    select *,
           ntile(10) over (partition by cca, seed order by size_bytes, flow_id) - 1 as bucket,
           finish_ns >= 0 as done
    from read_parquet(getvariable('cmp') || '/*/*/flows.parquet', hive_partitioning = true)
)
select
    cca::varchar                                                      as cca,
    seed::bigint                                                      as seed,
    bucket::integer                                                   as bucket,
    min(size_bytes)                                                   as size_min_bytes,
    max(size_bytes)                                                   as size_max_bytes,
    count(*)                                                          as flows,
    count(*) filter (where done)                                      as flows_finished,
    coalesce(quantile_disc(fct_ns, 0.5) filter (where done), 0)       as fct_p50_ns,
    coalesce(quantile_disc(fct_ns, 0.95) filter (where done), 0)      as fct_p95_ns,
    coalesce(quantile_disc(fct_ns, 0.99) filter (where done), 0)      as fct_p99_ns,
    coalesce(quantile_disc(slowdown, 0.5) filter (where done and isfinite(slowdown)), 0)  as slowdown_p50,
    coalesce(quantile_disc(slowdown, 0.95) filter (where done and isfinite(slowdown)), 0) as slowdown_p95,
    coalesce(quantile_disc(slowdown, 0.99) filter (where done and isfinite(slowdown)), 0) as slowdown_p99
from f
group by cca, seed, bucket
order by cca, seed, bucket;
