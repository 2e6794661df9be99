-- decisions_per_flow: one row per (run, flow) of decisions.parquet: how many
-- decisions, over which time, the mean and extreme actions, and whether the
-- flow's chain is whole (steps 0..n-1, exactly one done row, the last).
-- params: decisions (a decisions.parquet path or glob)
select
    run_id, cca, flow_id,
    count(*)                                           as decisions,
    max(step) + 1                                      as steps,
    min(t_ns)                                          as first_t_ns,
    max(t_ns)                                          as last_t_ns,
    avg(action)                                        as action_mean,
    min(action)                                        as action_min,
    max(action)                                        as action_max,
    count(*) filter (where done)                       as done_rows,
    bool_and(done = (next_row < 0))                    as done_iff_last,
    arg_max(done, step)                                as last_is_done
from read_parquet(getvariable('decisions'))
group by run_id, cca, flow_id
order by run_id, flow_id;
