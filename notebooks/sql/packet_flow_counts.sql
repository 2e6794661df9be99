-- packet_flow_counts: per flow, what packets.parquet saw of its data packets
-- beside what flows.parquet counted. Needs --packets data or all.
-- params: run (a run folder)
--
-- A data packet that reaches the receiver NIC is one 'deliver' row (a
-- retransmitted copy of an already delivered PSN is delivered again); one
-- dropped in a switch is one 'drop' row. So delivered = data_pkts_sent -
-- drops, delivered_ce = ce_pkts, distinct_psns = packets, and the last
-- delivery is finish_ns (-1 when nothing arrived).
with d as (
    select flow_id,
           count(*) filter (where event = 'deliver')              as delivered,
           count(*) filter (where event = 'deliver' and ce)       as delivered_ce,
           count(distinct psn) filter (where event = 'deliver')   as distinct_psns,
           coalesce(max(t_ns) filter (where event = 'deliver'), -1) as last_deliver_ns,
           count(*) filter (where event = 'drop')                 as log_dropped_pkts
    from read_parquet(getvariable('run') || '/packets.parquet')
    where kind = 'DATA' and event in ('deliver', 'drop')
    group by flow_id
)
select
    f.flow_id, f.src, f.dst, f.size_bytes,
    coalesce(d.delivered, 0)         as delivered,     f.data_pkts_sent,
    coalesce(d.delivered_ce, 0)      as delivered_ce,  f.ce_pkts,
    coalesce(d.distinct_psns, 0)     as distinct_psns, f.packets,
    coalesce(d.last_deliver_ns, -1)  as last_deliver_ns, f.finish_ns,
    coalesce(d.log_dropped_pkts, 0)  as log_dropped_pkts, f.dropped_pkts
from read_parquet(getvariable('run') || '/flows.parquet') f
left join d using (flow_id)
order by f.flow_id;
