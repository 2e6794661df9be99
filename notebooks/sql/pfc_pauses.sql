-- pfc_pauses: PFC pause time per directed node pair, measured twice: from the
-- PAUSE/RESUME frames in the packet log (what the sender of the frames asked)
-- and from ports.parquet's paused_ns of the paused ports (what the peer
-- did). Needs --packets all.
-- params: run (a run folder)
--
-- Parallel links between the same two nodes are summed together, since a
-- frame's row names the port that sent it but not the peer's port. The two
-- measures agree up to the ns rounding of each frame time (at most 1 ns per
-- pause), unless a pause was still on when the run ended (open_pauses > 0).
with fr as (
    select node, port, prio, kind, t_ns,
           lag(kind) over (partition by node, port, prio order by t_ns) as prev_kind
    from read_parquet(getvariable('run') || '/packets.parquet')
    where event = 'dequeue' and kind in ('PAUSE', 'RESUME')
),
grouped as (
    select *,
           sum(case when kind = 'PAUSE' and coalesce(prev_kind, 'RESUME') = 'RESUME' then 1 else 0 end)
               over (partition by node, port, prio order by t_ns rows unbounded preceding) as k
    from fr
),
pauses as (
    select node, port, prio, k,
           min(t_ns) filter (where kind = 'PAUSE')   as start_ns,
           min(t_ns) filter (where kind = 'RESUME')  as end_ns,
           count(*) filter (where kind = 'PAUSE')    as frames
    from grouped
    where k > 0
    group by node, port, prio, k
),
asked as (
    -- node = the sender of the frames, peer_node = the paused node
    select p.node, p.peer_node,
           count(*)                                  as pauses,
           count(*) filter (where s.end_ns is null)  as open_pauses,
           sum(s.frames)::bigint                     as pause_frames,
           coalesce(sum(s.end_ns - s.start_ns), 0)::bigint as paused_ns_from_frames
    from pauses s
    join read_parquet(getvariable('run') || '/ports.parquet') p using (node, port)
    group by p.node, p.peer_node
),
done as (
    -- paused_ns of the ports of peer_node that face node
    select peer_node as node, node as peer_node,
           sum(paused_ns)::bigint       as paused_ns,
           sum(pauses_received)::bigint as pauses_received
    from read_parquet(getvariable('run') || '/ports.parquet')
    group by node, peer_node
)
select
    a.node, a.peer_node, a.pauses, a.open_pauses, a.pause_frames,
    d.pauses_received, a.paused_ns_from_frames, d.paused_ns
from asked a
join done d using (node, peer_node)
order by a.node, a.peer_node;
