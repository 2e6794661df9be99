-- packet_port_counts: per egress port, what packets.parquet saw leave it or
-- be dropped there, beside what ports.parquet counted. Needs a run with
-- --packets all (with --packets data only data packets are logged).
-- params: run (a run folder)
--
-- Every transmission is one 'dequeue' row at (node, port), so with
-- --packets all: tx_pkts = dequeues, tx_bytes = their wire bytes,
-- tx_data_bytes = those of DATA rows, dropped_pkts/bytes = 'drop' rows,
-- pauses_sent = PAUSE dequeues. Ports without any event appear with zeros.
with e as (
    select node, port,
           count(*) filter (where event = 'dequeue')                          as log_tx_pkts,
           coalesce(sum(bytes) filter (where event = 'dequeue'), 0)::bigint    as log_tx_bytes,
           coalesce(sum(bytes) filter (where event = 'dequeue' and kind = 'DATA'), 0)::bigint as log_tx_data_bytes,
           count(*) filter (where event = 'drop')                             as log_dropped_pkts,
           coalesce(sum(bytes) filter (where event = 'drop'), 0)::bigint       as log_dropped_bytes,
           count(*) filter (where event = 'dequeue' and kind = 'PAUSE')       as log_pauses_sent
    from read_parquet(getvariable('run') || '/packets.parquet')
    where event in ('dequeue', 'drop')
    group by node, port
)
select
    p.node, p.port, p.is_switch, p.peer_node,
    coalesce(e.log_tx_pkts, 0)        as log_tx_pkts,       p.tx_pkts,
    coalesce(e.log_tx_bytes, 0)       as log_tx_bytes,      p.tx_bytes,
    coalesce(e.log_tx_data_bytes, 0)  as log_tx_data_bytes, p.tx_data_bytes,
    coalesce(e.log_dropped_pkts, 0)   as log_dropped_pkts,  p.dropped_pkts,
    coalesce(e.log_dropped_bytes, 0)  as log_dropped_bytes, p.dropped_bytes,
    coalesce(e.log_pauses_sent, 0)    as log_pauses_sent,   p.pauses_sent
from read_parquet(getvariable('run') || '/ports.parquet') p
left join e using (node, port)
order by p.node, p.port;
