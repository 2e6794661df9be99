-- compare_fct_cdf: the empirical FCT CDF of every run of a `ccreplay compare`
-- folder, for plotting one curve per algorithm (and seed).
-- params: cmp (a compare folder)
--
-- cdf = rank / n within the run, rank in (fct_ns, flow_id) order over the
-- finished flows, so the first row of a run with cdf >= p is its
-- nearest-rank p-percentile.
select
    cca::varchar                                  as cca,
    seed::bigint                                  as seed,
    flow_id,
    size_bytes,
    fct_ns,
    slowdown,
    row_number() over w                           as rank,
    row_number() over w / count(*) over (partition by cca, seed) as cdf
from read_parquet(getvariable('cmp') || '/*/*/flows.parquet', hive_partitioning = true)
where finish_ns >= 0
window w as (partition by cca, seed order by fct_ns, flow_id)
order by cca, seed, rank;
