-- switch_latency: per data packet, its way through the network: when the
-- sender NIC put it on the wire, when and after how much queueing each
-- switch egress sent it on, and when it reached the receiver. Needs
-- --packets data or all.
-- params: run (a run folder)
--
-- One row per (packet, switch hop). Only PSNs sent exactly once are kept:
-- the copies of a retransmitted PSN cannot be told apart in the log.
-- one_way_ns = delivered_ns - sent_ns; on a path of h links of equal rate,
-- one_way_ns - sum of the hops' queue_delay_ns = h * (link delay + wire time).
with p as (
    select * from read_parquet(getvariable('run') || '/packets.parquet')
    where kind = 'DATA'
),
sent as (
    select flow_id, psn, min(t_ns) as sent_ns
    from p
    where event = 'dequeue' and node = src
    group by flow_id, psn
    having count(*) = 1
),
got as (
    select flow_id, psn, min(t_ns) as delivered_ns
    from p
    where event = 'deliver'
    group by flow_id, psn
    having count(*) = 1
)
select
    h.flow_id, h.psn, h.bytes,
    s.sent_ns,
    h.node                          as switch_node,
    h.port                          as switch_port,
    h.t_ns                          as switch_out_ns,
    h.queue_delay_ns,
    h.qdepth_enq_bytes,
    h.ce,
    g.delivered_ns,
    g.delivered_ns - s.sent_ns      as one_way_ns
from p h
join sent s using (flow_id, psn)
join got g using (flow_id, psn)
where h.event = 'dequeue' and h.node <> h.src
order by h.flow_id, h.psn, h.t_ns;
