-- compare_slowdown_by_size: FCT and slowdown per flow-size bucket of every
-- run of a `ccreplay compare` folder, one row per (cca, seed, bucket): the
-- bucket >= 0 rows of comparison.parquet.
-- params: cmp (a compare folder)
--
-- Buckets as run_slowdown_by_size.sql, within each run: 10 groups of equal
-- count in (size_bytes, flow_id) order; every run of one workload has the
-- same boundaries. Percentiles are nearest rank over finished flows.
-- Consecutive groups that hold one and the same size only are merged.
with g as (
    select *,
           ntile(10) over (partition by cca, seed order by size_bytes, flow_id) - 1 as nt,
           finish_ns >= 0 as done
    from read_parquet(getvariable('cmp') || '/*/*/flows.parquet', hive_partitioning = true)
),
groups as (
    select cca, seed, nt, case when min(size_bytes) = max(size_bytes) then -1 - min(size_bytes) else nt end as k
    from g group by cca, seed, nt
),
merged as (
    select cca, seed, nt, dense_rank() over (partition by cca, seed order by first_nt) - 1 as bucket
    from (select cca, seed, nt, min(nt) over (partition by cca, seed, k) as first_nt from groups)
),
f as (select g.*, merged.bucket from g join merged using (cca, seed, nt))
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
