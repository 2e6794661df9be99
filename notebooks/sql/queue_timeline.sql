-- queue_timeline: the egress queue depth of every switch port over time, in
-- bins, from the packet log. Needs --packets data (data queues) or all.
-- params: run (a run folder), bin_ns (bin width, ns, e.g. 1000)
--
-- A packet's depth after enqueue is qdepth_enq_bytes (the queue when it
-- arrived) + its own wire bytes; PAUSE/RESUME frames bypass the queues and
-- are left out. Each bin holds the deepest such queue among the packets that
-- left the port in it, so the maximum over bins is ports.parquet's
-- qlen_max_bytes (with --packets all). t_ns is the bin start.
select
    node,
    port,
    (t_ns // getvariable('bin_ns')) * getvariable('bin_ns')  as t_ns,
    max(qdepth_enq_bytes + bytes)                             as qdepth_max_bytes,
    avg(qdepth_enq_bytes + bytes)                             as qdepth_mean_bytes,
    count(*) filter (where kind = 'DATA')                     as data_pkts,
    count(*) filter (where kind = 'DATA' and ce)              as ce_pkts
from read_parquet(getvariable('run') || '/packets.parquet')
where event = 'dequeue'
  and kind not in ('PAUSE', 'RESUME')
  and node in (select node from read_parquet(getvariable('run') || '/ports.parquet') where is_switch)
group by all
order by node, port, t_ns;
