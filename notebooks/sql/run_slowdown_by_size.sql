-- run_slowdown_by_size: FCT and slowdown per flow-size bucket of one run, the
-- rows of summary.json's "buckets" (metrics/buckets.go), smallest sizes first.
-- params: run (a run folder)
--
-- Flows sorted by (size_bytes, flow_id) are cut into 10 groups of equal count
-- (ntile: when 10 does not divide the count, the first groups hold one flow
-- more; fewer than 10 flows give one bucket each). Boundaries use every flow,
-- finished or not, so two algorithms on one trace get the same buckets; the
-- percentiles (nearest rank) are over the bucket's finished flows.
-- Consecutive groups that hold one and the same size only are merged (a
-- workload of equal flows has one bucket, not ten identical ones).
with g as (
    select *,
           ntile(10) over (order by size_bytes, flow_id) - 1 as nt,
           finish_ns >= 0 as done
    from read_parquet(getvariable('run') || '/flows.parquet')
),
groups as (
    -- a group holding one size only is keyed by that size (negative, so it
    -- never equals a group number); others by their group number
    select nt, case when min(size_bytes) = max(size_bytes) then -1 - min(size_bytes) else nt end as k
    from g group by nt
),
merged as (
    select nt, dense_rank() over (order by first_nt) - 1 as bucket
    from (select nt, min(nt) over (partition by k) as first_nt from groups)
),
f as (select g.*, merged.bucket from g join merged using (nt))
select
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
group by bucket
order by bucket;
