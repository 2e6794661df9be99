-- run_fct_cdf: the empirical CDF of the FCTs of one run's finished flows, one
-- row per flow in FCT order, for plotting.
-- params: run (a run folder)
--
-- cdf = rank / n with rank 1..n in (fct_ns, flow_id) order, so the first row
-- with cdf >= p holds the nearest-rank p-percentile of summary.json.
select
    flow_id,
    size_bytes,
    fct_ns,
    slowdown,
    row_number() over w                          as rank,
    row_number() over w / count(*) over ()       as cdf
from read_parquet(getvariable('run') || '/flows.parquet')
where finish_ns >= 0
window w as (order by fct_ns, flow_id)
order by rank;
