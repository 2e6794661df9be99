-- run_message_metrics: message and collective completion times of one run,
-- one row named as summary.json's "metrics" keys (metrics/compute.go).
-- params: run (a run folder)
--
-- MCT = finish_ns - release_ns of a finished message. A collective is the
-- messages sharing a collective_id >= 0; it is finished when all of them are,
-- and its CCT = last finish_ns - first release_ns. Percentiles are nearest
-- rank (quantile_disc with decimal literals, as metrics/percentile.go).
with m as (
    select * from read_parquet(getvariable('run') || '/messages.parquet')
),
c as (
    select collective_id,
           bool_and(finish_ns >= 0)          as done,
           max(finish_ns) - min(release_ns)  as cct_ns
    from m
    where collective_id >= 0
    group by collective_id
),
ms as (
    select
        count(*)                                                        as messages,
        count(*) filter (where finish_ns >= 0)                          as messages_finished,
        coalesce(avg(mct_ns) filter (where finish_ns >= 0), 0)          as mct_mean_ns,
        coalesce(quantile_disc(mct_ns, 0.5) filter (where finish_ns >= 0), 0)   as mct_p50_ns,
        coalesce(quantile_disc(mct_ns, 0.9) filter (where finish_ns >= 0), 0)   as mct_p90_ns,
        coalesce(quantile_disc(mct_ns, 0.95) filter (where finish_ns >= 0), 0)  as mct_p95_ns,
        coalesce(quantile_disc(mct_ns, 0.99) filter (where finish_ns >= 0), 0)  as mct_p99_ns,
        coalesce(quantile_disc(mct_ns, 0.999) filter (where finish_ns >= 0), 0) as mct_p999_ns,
        coalesce(max(mct_ns) filter (where finish_ns >= 0), 0)          as mct_max_ns
    from m
),
cs as (
    select
        count(*)                                                as collectives,
        count(*) filter (where done)                            as collectives_finished,
        coalesce(avg(cct_ns) filter (where done), 0)            as cct_mean_ns,
        coalesce(quantile_disc(cct_ns, 0.5) filter (where done), 0)   as cct_p50_ns,
        coalesce(quantile_disc(cct_ns, 0.9) filter (where done), 0)   as cct_p90_ns,
        coalesce(quantile_disc(cct_ns, 0.95) filter (where done), 0)  as cct_p95_ns,
        coalesce(quantile_disc(cct_ns, 0.99) filter (where done), 0)  as cct_p99_ns,
        coalesce(quantile_disc(cct_ns, 0.999) filter (where done), 0) as cct_p999_ns,
        coalesce(max(cct_ns) filter (where done), 0)            as cct_max_ns
    from c
)
select * from ms, cs;
