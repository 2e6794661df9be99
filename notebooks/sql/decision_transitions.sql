-- decision_transitions: decisions.parquet (schema/v2/decision.go, written by
-- `ccreplay dataset`) as offline-RL transitions (observation, action,
-- reward, next observation, done), one row per decision, in file order.
-- params: decisions (a decisions.parquet path; a glob reads several files)
--
-- next_row is the 0-based row index of the flow's next decision in the same
-- file, -1 on its last one: the self-join is on (file, row number). The last
-- decision of a flow has done = true and NULL next_* columns. Rewards not
-- requested when the dataset was made are NaN.
with d as (
    select * from read_parquet(getvariable('decisions'), filename = true, file_row_number = true)
)
select
    d.filename, d.file_row_number as row, d.run_id, d.cca, d.flow_id, d.step, d.t_ns,
    -- observation
    d.rate_frac, d.rtt_inflation, d.ecn_ratio, d.cnps, d.nacks, d.goodput_frac,
    d.int_qlen_frac, d.int_txrate_frac, d.flows_to_dst, d.prev_action,
    -- action and rewards
    d.action, d.new_rate_bps,
    d.reward_dolce, d.reward_dolceplus, d.reward_rlcc, d.reward_rlcc_betafree, d.reward_fdcc, d.return_fdcc_nstep,
    -- next observation
    n.t_ns             as next_t_ns,
    n.rate_frac        as next_rate_frac,
    n.rtt_inflation    as next_rtt_inflation,
    n.ecn_ratio        as next_ecn_ratio,
    n.cnps             as next_cnps,
    n.nacks            as next_nacks,
    n.goodput_frac     as next_goodput_frac,
    n.int_qlen_frac    as next_int_qlen_frac,
    n.int_txrate_frac  as next_int_txrate_frac,
    n.flows_to_dst     as next_flows_to_dst,
    n.prev_action      as next_prev_action,
    d.done
from d
left join d n
  on n.filename = d.filename and n.file_row_number = d.next_row
order by d.filename, d.file_row_number;
