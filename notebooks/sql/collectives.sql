-- collectives: one row per collective (MPI operation) of one run: its
-- messages, bytes, first release, last finish and completion time, e.g. the
-- iterations of an osu-alltoall workload.
-- params: run (a run folder)
--
-- A collective is finished when all its messages are (finish_ns >= 0);
-- cct_ns = last finish_ns - first release_ns, NULL when unfinished. The mean
-- of cct_ns is summary.json's cct_mean_ns. msg_size_bytes is the largest
-- message, i.e. the per-pair size of an all-to-all.
select
    collective_id,
    count(*)                                          as messages,
    sum(size_bytes)::bigint                           as bytes,
    max(size_bytes)                                   as msg_size_bytes,
    min(release_ns)                                   as start_ns,
    max(finish_ns)                                    as finish_ns,
    bool_and(finish_ns >= 0)                          as finished,
    case when bool_and(finish_ns >= 0)
         then max(finish_ns) - min(release_ns) end    as cct_ns
from read_parquet(getvariable('run') || '/messages.parquet')
where collective_id >= 0
group by collective_id
order by collective_id;
